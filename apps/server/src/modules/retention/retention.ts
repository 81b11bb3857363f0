import { readdir, rm } from 'node:fs/promises';
import { instanceScope, withScope } from '../../db/scope.js';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { LOG_FILE_PATTERN, limits } from '@pathway/contract';
import type { AppContext } from '../../context.js';
import { column, rowsReader } from '../../db/rows.js';
import type { JobDefinition } from '../../jobs/queue.js';
import { pruneRateLimitCounters } from '../../plugins/rate-limit.js';
import { pruneLogoutTokens, pruneSsoFlows } from '../sso/index.js';
import { pruneExpiredDeviceTokens } from '../device-api/index.js';
import { RecordsService } from '../life-cycle/index.js';

export const RETENTION_JOB = 'retention';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Rows deleted per statement: small enough that requests are served between two batches. */
export const PRUNE_BATCH = 5_000;
/** Sessions are useless once ended or expired; this margin covers instances whose clocks differ. */
const SESSION_MARGIN_MS = 60 * 60 * 1000;
/** A user name's failed sign-ins are forgotten after a day without failures (unless it is locked). */
const SIGN_IN_FAILURES_KEPT_MS = DAY_MS;

export interface PruneResult {
  log_files: number;
  audit_events: number;
  device_sign_ins: number;
  sessions: number;
  sign_in_counters: number;
  push_messages: number;
  finished_jobs: number;
  device_tokens: number;
  rate_limit_counters: number;
  sso_flows: number;
  sso_logout_tokens: number;
  /** Not removed: discharged participants' records past PARTICIPANT_RETENTION_YEARS, for a person to review. */
  participant_records_due_for_review: number;
}

function daysBefore(now: Date, days: number): string {
  return new Date(now.getTime() - days * DAY_MS).toISOString();
}

/** Daily log files whose day is more than `days` before today (by their name, not their mtime). */
export async function pruneLogFiles(logDir: string, now: Date, days: number): Promise<number> {
  const cutoff = daysBefore(now, days).slice(0, 10);
  const names = await readdir(logDir).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    if (!LOG_FILE_PATTERN.test(name)) continue;
    const day = name.slice('pathway-'.length, 'pathway-'.length + 10);
    if (day >= cutoff) continue;
    await rm(path.join(logDir, name), { force: true });
    removed += 1;
  }
  return removed;
}

/**
 * Deletes `table` rows matching `where` in batches of PRUNE_BATCH by primary key, each its own
 * statement, so a years-deep backlog never holds one long lock (nor, on PGlite, the only
 * connection) and a stop in the middle keeps what was already done.
 */
const readCount = rowsReader({ n: column.integer });

async function deleteInBatches(
  ctx: AppContext,
  /** A constant of this file, never input: it is written into the SQL as is. */
  table: string,
  /** The table's key: a column, or a comma-separated list of them. */
  key: string,
  where: ReturnType<typeof sql>,
): Promise<number> {
  let total = 0;
  for (;;) {
    if (ctx.jobs.stopping) break;
    const rows = readCount(
      await ctx.db.execute(sql`
        with gone as (
          delete from ${sql.raw(table)} where (${sql.raw(key)}) in (
            select ${sql.raw(key)} from ${sql.raw(table)} where ${where} limit ${PRUNE_BATCH})
          returning 1)
        select count(*)::int as n from gone`),
    );
    const n = rows[0]?.n ?? 0;
    total += n;
    if (n < PRUNE_BATCH) break;
  }
  return total;
}

export async function pruneAuditEvents(ctx: AppContext, now: Date, days: number): Promise<number> {
  return deleteInBatches(
    ctx,
    'audit_events',
    'audit_event_id',
    sql`created_at < ${daysBefore(now, days)}::timestamptz`,
  );
}

/**
 * Tablet sign-in records (who used a device id, from where) are security records like the audit
 * trail, kept as long: AUDIT_RETENTION_DAYS.
 */
export async function pruneDeviceSignIns(ctx: AppContext, now: Date, days: number): Promise<number> {
  return deleteInBatches(
    ctx,
    'device_sign_ins',
    'device_sign_in_id',
    sql`created_at < ${daysBefore(now, days)}::timestamptz`,
  );
}

/** Sessions that were ended or have expired (idle or in all) can never be used again. */
export async function pruneSessions(ctx: AppContext, now: Date): Promise<number> {
  const at = (ms: number) => new Date(now.getTime() - ms - SESSION_MARGIN_MS).toISOString();
  return deleteInBatches(
    ctx,
    'sessions',
    'session_id',
    sql`ended_at < ${at(0)}::timestamptz
      or last_seen_at < ${at(limits.sessionIdleMinutes * 60_000)}::timestamptz
      or created_at < ${at(limits.sessionMaxHours * 3_600_000)}::timestamptz`,
  );
}

/** Failed sign-in counters of user names (real or made up) that have been quiet for a day. */
export async function pruneSignInCounters(ctx: AppContext, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - SIGN_IN_FAILURES_KEPT_MS).toISOString();
  return deleteInBatches(
    ctx,
    'login_throttle',
    // One row per user name and source address: a quiet one goes, a locked one beside it stays.
    'user_name, source',
    sql`last_failure_at < ${cutoff}::timestamptz
      and (locked_until is null or locked_until < ${now.toISOString()}::timestamptz)`,
  );
}

/** Push messages no longer waiting to be sent (sent, failed, not sent, unregistered). */
export async function prunePushMessages(ctx: AppContext, now: Date, days: number): Promise<number> {
  return deleteInBatches(
    ctx,
    'push_outbox',
    'push_id',
    sql`status not in ('queued', 'sending') and created_at < ${daysBefore(now, days)}::timestamptz`,
  );
}

/**
 * Finished background jobs. pg-boss keeps them for its own retention too; this bounds the table
 * by the operator's setting whatever the queue library's defaults become.
 */
export async function pruneFinishedJobs(ctx: AppContext, now: Date, days: number): Promise<number> {
  const cutoff = daysBefore(now, days);
  const finished = await deleteInBatches(
    ctx,
    'pgboss.job',
    'id',
    sql`state in ('completed', 'failed', 'cancelled') and coalesce(completed_on, created_on) < ${cutoff}::timestamptz`,
  );
  // pg-boss moves finished jobs to its archive after a while; those go by the same age.
  const archived = await deleteInBatches(
    ctx,
    'pgboss.archive',
    'id',
    sql`coalesce(completed_on, archived_on) < ${cutoff}::timestamptz`,
  );
  return finished + archived;
}

/** Every prune, in one pass; what each removed is logged and returned. */
export function runRetention(ctx: AppContext): Promise<PruneResult> {
  return withScope(instanceScope('retention'), () => pruneEverything(ctx));
}

async function pruneEverything(ctx: AppContext): Promise<PruneResult> {
  const now = ctx.clock.now();
  const days = ctx.config.retention;
  const result: PruneResult = {
    log_files: await pruneLogFiles(ctx.config.logDir, now, days.logDays),
    audit_events: await pruneAuditEvents(ctx, now, days.auditDays),
    device_sign_ins: await pruneDeviceSignIns(ctx, now, days.auditDays),
    sessions: await pruneSessions(ctx, now),
    sign_in_counters: await pruneSignInCounters(ctx, now),
    push_messages: await prunePushMessages(ctx, now, days.pushDays),
    finished_jobs: await pruneFinishedJobs(ctx, now, days.jobDays),
    // Tablet tokens end by time, never by count (see device-api/service.ts).
    device_tokens: await pruneExpiredDeviceTokens(ctx.db, now, ctx.config.deviceTokenIdleDays),
    rate_limit_counters: await pruneRateLimitCounters(ctx.db, now),
    // Single sign-on: flows past their 10 minutes, logout tokens past their expiry.
    sso_flows: await pruneSsoFlows(ctx.db, now),
    sso_logout_tokens: await pruneLogoutTokens(ctx.db, now),
    // Listed, never destroyed here: a person decides, on the Records due for review screen.
    participant_records_due_for_review: await new RecordsService(ctx).countDue(),
  };
  ctx.logger.info({ ...result }, 'retention: old records removed');
  return result;
}

export function retentionJob(ctx: AppContext): JobDefinition<object> {
  return {
    name: RETENTION_JOB,
    policy: 'singleton',
    retryLimit: 2,
    schedule: { cron: ctx.config.retention.cron, timeZone: ctx.config.adherenceCheck.timeZone },
    async handler() {
      await runRetention(ctx);
    },
  };
}
