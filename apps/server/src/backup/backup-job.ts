import fs from 'node:fs/promises';
import path from 'node:path';
import type { AppContext } from '../context.js';
import type { JobDefinition } from '../jobs/queue.js';
import { createBackup, type BackupResult } from './backup.js';

export const BACKUP_JOB = 'scheduled-backup';
const NAME = /^pathway-backup-\d{8}T\d{6}Z\.tar$/;

/** `pathway-backup-20261123T013000Z.tar`: sorts by time, and only these are ever removed. */
function backupName(at: Date): string {
  return `pathway-backup-${at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}.tar`;
}

/** One backup into BACKUP_DIR, then the oldest removed so that BACKUP_KEEP remain. */
export async function runScheduledBackup(ctx: AppContext): Promise<BackupResult & { removed: string[] }> {
  const settings = ctx.config.backup!;
  await fs.mkdir(settings.dir, { recursive: true });
  const result = await createBackup(ctx, path.join(settings.dir, backupName(ctx.clock.now())));
  const kept = (await fs.readdir(settings.dir)).filter((n) => NAME.test(n)).sort();
  const removed = kept.slice(0, Math.max(0, kept.length - settings.keep));
  for (const name of removed) await fs.rm(path.join(settings.dir, name), { force: true });
  ctx.logger.info({ file: result.file, removed }, 'scheduled backup done');
  return { ...result, removed };
}

/** Present only when BACKUP_CRON is set (embedded mode: PostgreSQL has its own tools). */
export function scheduledBackupJob(ctx: AppContext): JobDefinition<object> | undefined {
  const settings = ctx.config.backup;
  if (!settings || ctx.database.kind !== 'pglite') return undefined;
  return {
    name: BACKUP_JOB,
    policy: 'singleton',
    retryLimit: 1,
    // A backup of a large media store can take long; a lost one is simply retried.
    expireInSeconds: 6 * 60 * 60,
    schedule: { cron: settings.cron, timeZone: ctx.config.adherenceCheck.timeZone },
    async handler() {
      await runScheduledBackup(ctx);
    },
  };
}
