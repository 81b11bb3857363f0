import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/rows.js';
import { logFileNameFor } from '../../logging.js';
import { createAdmin, createTestApp, signedInCookie, type TestApp } from '../../../test/harness.js';
import { PRUNE_BATCH, RETENTION_JOB, runRetention } from './retention.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    env: {
      LOG_RETENTION_DAYS: '90',
      AUDIT_RETENTION_DAYS: '2920',
      PUSH_RETENTION_DAYS: '30',
      JOB_RETENTION_DAYS: '7',
    },
  });
});
afterAll(() => t.close());

const DAY = 24 * 60 * 60 * 1000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString();

async function count(query: ReturnType<typeof sql>): Promise<number> {
  return Number(rowsOf<{ n: number }>(await t.ctx.database.db.execute(query))[0]!.n);
}

describe('retention', () => {
  it('tells full-access staff how long logs and audit records are kept', async () => {
    const { cookie } = await signedInCookie(t.ctx, 'full access');
    const res = await t.app.inject({ url: '/api/retention', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ log_retention_days: 90, audit_retention_days: 2920 });
  });

  it('removes daily log files older than LOG_RETENTION_DAYS and keeps the rest', async () => {
    const dir = t.config.logDir;
    mkdirSync(dir, { recursive: true });
    const old = [logFileNameFor(new Date(daysAgo(91))), logFileNameFor(new Date(daysAgo(400)))];
    const kept = [logFileNameFor(new Date(daysAgo(89))), logFileNameFor(new Date(daysAgo(1)))];
    for (const name of [...old, ...kept]) writeFileSync(path.join(dir, name), '{}\n');
    writeFileSync(path.join(dir, 'notes.txt'), 'not a log file: never touched');

    const result = await runRetention(t.ctx);
    expect(result.log_files).toBe(2);
    const left = readdirSync(dir);
    for (const name of old) expect(left).not.toContain(name);
    for (const name of kept) expect(left).toContain(name);
    expect(left).toContain('notes.txt');
    expect(left).toContain(logFileNameFor(new Date())); // today's, being written
  });

  it('removes audit records older than AUDIT_RETENTION_DAYS in batches, keeping younger ones', async () => {
    await t.ctx.database.db.execute(sql`delete from audit_events`);
    // More than one batch of expired records, and records either side of the cut-off.
    await t.ctx.database.db.execute(sql`
      insert into audit_events (admin_user_name, action, created_at)
      select 'old.admin', 'participant.read', ${daysAgo(2921)}::timestamptz - g * interval '1 minute'
      from generate_series(1, ${PRUNE_BATCH + 7}) g`);
    await t.ctx.database.db.execute(sql`
      insert into audit_events (admin_user_name, action, created_at)
      values ('kept.admin', 'participant.read', ${daysAgo(2919)}::timestamptz),
             ('kept.admin', 'participant.read', now())`);

    const result = await runRetention(t.ctx);
    expect(result.audit_events).toBe(PRUNE_BATCH + 7);
    expect(
      await count(sql`select count(*)::int as n from audit_events where admin_user_name = 'old.admin'`),
    ).toBe(0);
    expect(
      await count(sql`select count(*)::int as n from audit_events where admin_user_name = 'kept.admin'`),
    ).toBe(2);
  });

  it('removes tablet sign-in records older than AUDIT_RETENTION_DAYS, keeping younger ones', async () => {
    await t.ctx.database.db.execute(sql`delete from device_sign_ins`);
    await t.ctx.database.db.execute(sql`
      insert into device_sign_ins (kind, device_uuid, ip_address, created_at, organisation_id) values
        ('token issued', 'old-1', '10.0.0.1', ${daysAgo(2921)}::timestamptz, 1),
        ('push token changed', 'old-2', '10.0.0.1', ${daysAgo(3000)}::timestamptz, 1),
        ('token issued', 'kept-1', '10.0.0.1', ${daysAgo(2919)}::timestamptz, 1),
        ('token issued', 'kept-2', '10.0.0.1', now(), 1)`);

    const result = await runRetention(t.ctx);
    expect(result.device_sign_ins).toBe(2);
    const left = rowsOf<{ device_uuid: string }>(
      await t.ctx.database.db.execute(sql`select device_uuid from device_sign_ins order by device_uuid`),
    );
    expect(left.map((row) => row.device_uuid)).toEqual(['kept-1', 'kept-2']);
  });

  it('removes ended and expired sessions, and quiet sign-in counters, but not live ones', async () => {
    const admin = await createAdmin(t.ctx);
    const id = admin.admin_user_id;
    await t.ctx.database.db.execute(sql`delete from sessions`);
    await t.ctx.database.db.execute(sql`
      insert into sessions (admin_user_id, created_at, last_seen_at, ended_at, ip) values
        (${id}, ${daysAgo(3)}::timestamptz, ${daysAgo(3)}::timestamptz, ${daysAgo(3)}::timestamptz, 'ended'),
        (${id}, ${daysAgo(2)}::timestamptz, ${daysAgo(2)}::timestamptz, null, 'idle'),
        (${id}, now() - interval '14 hours', now() - interval '5 minutes', null, 'too old'),
        (${id}, now() - interval '1 hour', now() - interval '1 minute', null, 'live')`);
    await t.ctx.database.db.execute(sql`delete from login_throttle`);
    await t.ctx.database.db.execute(sql`
      insert into login_throttle (user_name, failures, last_failure_at, locked_until) values
        ('quiet', 2, ${daysAgo(2)}::timestamptz, null),
        ('lock-over', 10, ${daysAgo(2)}::timestamptz, ${daysAgo(2)}::timestamptz),
        ('recent', 2, now(), null),
        ('locked', 10, ${daysAgo(2)}::timestamptz, now() + interval '10 minutes')`);

    const result = await runRetention(t.ctx);
    expect(result.sessions).toBe(3);
    expect(rowsOf<{ ip: string }>(await t.ctx.database.db.execute(sql`select ip from sessions`))).toEqual([
      { ip: 'live' },
    ]);
    expect(result.sign_in_counters).toBe(2);
    const names = rowsOf<{ user_name: string }>(
      await t.ctx.database.db.execute(sql`select user_name from login_throttle order by user_name`),
    ).map((r) => r.user_name);
    expect(names).toEqual(['locked', 'recent']);
  });

  it('removes push messages older than PUSH_RETENTION_DAYS once they are no longer waiting', async () => {
    await t.ctx.database.db.execute(sql`delete from push_outbox`);
    await t.ctx.database.db.execute(sql`
      insert into push_outbox (title, body, kind, status, created_at) values
        ('t', 'b', 'manual', 'sent', ${daysAgo(31)}::timestamptz),
        ('t', 'b', 'manual', 'not sent: no provider configured', ${daysAgo(40)}::timestamptz),
        ('t', 'b', 'manual', 'queued', ${daysAgo(40)}::timestamptz),
        ('t', 'b', 'manual', 'sent', ${daysAgo(29)}::timestamptz)`);

    const result = await runRetention(t.ctx);
    expect(result.push_messages).toBe(2);
    const left = rowsOf<{ status: string }>(
      await t.ctx.database.db.execute(sql`select status from push_outbox order by status`),
    ).map((r) => r.status);
    expect(left).toEqual(['queued', 'sent']);
  });

  it('removes finished jobs older than JOB_RETENTION_DAYS, never waiting or recent ones', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 4; i += 1) ids.push((await t.ctx.jobs.send(RETENTION_JOB, { i }))!);
    const [oldDone, oldFailed, recentDone, waiting] = ids;
    await t.ctx.database.db.execute(sql`
      update pgboss.job set state = 'completed', completed_on = ${daysAgo(8)}::timestamptz where id = ${oldDone}::uuid`);
    await t.ctx.database.db.execute(sql`
      update pgboss.job set state = 'failed', completed_on = ${daysAgo(9)}::timestamptz where id = ${oldFailed}::uuid`);
    await t.ctx.database.db.execute(sql`
      update pgboss.job set state = 'completed', completed_on = ${daysAgo(6)}::timestamptz where id = ${recentDone}::uuid`);

    const result = await runRetention(t.ctx);
    expect(result.finished_jobs).toBeGreaterThanOrEqual(2);
    const left = rowsOf<{ id: string }>(
      await t.ctx.database.db.execute(sql`select id::text from pgboss.job where name = ${RETENTION_JOB}`),
    ).map((r) => r.id);
    expect(left).not.toContain(oldDone);
    expect(left).not.toContain(oldFailed);
    expect(left).toContain(recentDone);
    expect(left).toContain(waiting);
  });
});
