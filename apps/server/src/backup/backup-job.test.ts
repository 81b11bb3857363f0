import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rowsOf } from '../db/rows.js';
import { describeOn } from '../../test/database-project.js';
import { ManualClock, createTestApp, type TestApp } from '../../test/harness.js';
import { BACKUP_JOB, runScheduledBackup } from './backup-job.js';

const clock = new ManualClock(new Date('2026-11-20T02:00:00Z'));
let t: TestApp;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'pathway-scheduled-'));
  t = await createTestApp({
    clock,
    workers: true,
    env: { BACKUP_CRON: '0 2 * * *', BACKUP_DIR: dir, BACKUP_KEEP: '2' },
  });
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

describeOn('pglite', 'scheduled backups (embedded mode)', () => {
  it('is scheduled at BACKUP_CRON, writes into BACKUP_DIR and keeps the last BACKUP_KEEP', async () => {
    const schedule = rowsOf<{ cron: string }>(
      await t.ctx.database.db.execute(sql`select cron from pgboss.schedule where name = ${BACKUP_JOB}`),
    );
    expect(schedule).toEqual([{ cron: '0 2 * * *' }]);

    const names: string[] = [];
    for (let day = 0; day < 3; day += 1) {
      const result = await runScheduledBackup(t.ctx);
      names.push(path.basename(result.file));
      clock.advance(24 * 60 * 60 * 1000);
    }
    expect(names).toEqual([
      'pathway-backup-20261120T020000Z.tar',
      'pathway-backup-20261121T020000Z.tar',
      'pathway-backup-20261122T020000Z.tar',
    ]);
    expect(readdirSync(dir).sort()).toEqual(names.slice(1));
  });
});

describeOn('postgres', 'scheduled backups with PostgreSQL', () => {
  it('are not scheduled: PostgreSQL is backed up with its own tools', async () => {
    const schedule = rowsOf<{ cron: string }>(
      await t.ctx.database.db.execute(sql`select cron from pgboss.schedule where name = ${BACKUP_JOB}`),
    );
    expect(schedule).toEqual([]);
  });
});
