import { sql } from 'drizzle-orm';
import { instanceScope, withScope } from '../../db/scope.js';
import { messages } from '@pathway/contract';
import type { Config } from '../../config.js';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { column, nullable, rowsReader } from '../../db/rows.js';
import { idArray } from '../../db/select-rows.js';
import type { JobDefinition } from '../../jobs/queue.js';
import { FcmProvider, readServiceAccount } from './fcm.js';
import type { PushProvider, PushResult } from './provider.js';

/**
 * Delivery of push_outbox rows. Whoever queues a message inserts a row with status 'queued' and
 * sends this job in the same transaction; the job claims due rows, sends each through the
 * provider and records the outcome on the row, which staff can read.
 */
export const PUSH_DELIVER_JOB = 'push-deliver';

const s = messages.push;
const BATCH_SIZE = 100;
const CONCURRENCY = 8;
/** A claimed row whose sender died is taken up again after this long. */
const CLAIM_LEASE_MS = 5 * 60_000;
export const MAX_ATTEMPTS = 8;

/** 30 s, 1 min, 2 min, ... capped at an hour; a provider's Retry-After wins when longer. */
export function retryDelayMs(attempts: number, retryAfterMs?: number): number {
  const backoff = Math.min(60 * 60_000, 30_000 * 2 ** Math.max(0, attempts - 1));
  return Math.max(backoff, retryAfterMs ?? 0);
}

/** FCM when a service account is configured; otherwise none (messages stay in the outbox). */
export function createPushProvider(config: Config): PushProvider | null {
  if (!config.fcm) return null;
  const serviceAccount = readServiceAccount(config.fcm.serviceAccountFile);
  const projectId = config.fcm.projectId ?? serviceAccount.project_id;
  if (!projectId) throw new Error('Set FCM_PROJECT_ID: the service-account key names no project_id');
  return new FcmProvider({ projectId, serviceAccount, apiUrl: config.fcm.apiUrl });
}

/** Asks for delivery; inside a transaction, the job exists only if the messages do. */
export async function requestPushDelivery(ctx: AppContext, tx?: Database): Promise<void> {
  await ctx.jobs.send(PUSH_DELIVER_JOB, {}, tx ? { tx } : {});
  if (!tx) ctx.jobs.notify(PUSH_DELIVER_JOB);
}

const readClaimed = rowsReader({
  push_id: column.integer,
  participant_id: nullable(column.integer),
  target_token: nullable(column.text),
  title: column.text,
  body: column.text,
  attempts: column.integer,
  participant_token: nullable(column.text),
  /** Null when the message has no participant (or they were deleted). */
  participant_status: nullable(column.text),
});
type ClaimedPush = ReturnType<typeof readClaimed>[number];
const readNextDue = rowsReader({ due: nullable(column.timestamp) });
const readPushIds = rowsReader({ push_id: column.integer });

export interface DeliveryReport {
  sent: number;
  retrying: number;
  failed: number;
  notSent: number;
}

/**
 * Follow-up's "reminders failing": failures in a row since the last message delivered, and when
 * the first of them was answered, kept beside the participant's worklist facts in the statement
 * that records the outcome. Messages never handed to a provider (none configured, no token) are
 * not the provider's failures.
 */
const followupDelivered = sql`update participant_followup f set push_failures = 0, failing_began_at = null
  from sent where f.participant_id = sent.participant_id
    and (f.push_failures <> 0 or f.failing_began_at is not null)`;
const followupFailed = (answeredAt: Date) => sql`update participant_followup f
  set push_failures = f.push_failures + 1,
    failing_began_at = coalesce(f.failing_began_at, ${answeredAt.toISOString()}::timestamptz)
  from sent where f.participant_id = sent.participant_id`;

const hasToken = (token: string | null | undefined): token is string => !!token && token !== 'empty';

/** A claimed message to hand to the provider, and the token it goes to. */
interface Sendable {
  push: ClaimedPush;
  token: string;
  provider: PushProvider;
}

export class PushDelivery {
  constructor(
    private readonly ctx: Pick<AppContext, 'db' | 'clock' | 'logger'>,
    private readonly provider: PushProvider | null,
    /** True once the process is stopping: claim no more, hand back what is not yet sent. */
    private readonly stopping: () => boolean = () => false,
  ) {}

  /** Sends every due message; answers when the next retry is due (if any) for a follow-up job. */
  /** Every due message of every organisation: the instance's work. */
  deliverDue(): Promise<DeliveryReport & { nextDueAt: Date | null }> {
    return withScope(instanceScope('push delivery'), () => this.deliverEveryDue());
  }

  private async deliverEveryDue(): Promise<DeliveryReport & { nextDueAt: Date | null }> {
    const report: DeliveryReport = { sent: 0, retrying: 0, failed: 0, notSent: 0 };
    while (!this.stopping()) {
      const claimed = await this.claim();
      if (claimed.length === 0) break;
      const sendable = await this.finishUnsendable(claimed, report);
      let cursor = 0;
      const worker = async () => {
        while (cursor < sendable.length && !this.stopping()) {
          await this.deliverOne(sendable[cursor++]!, report);
        }
      };
      await Promise.all(Array.from({ length: Math.min(CONCURRENCY, sendable.length) }, worker));
      const unsent = sendable.slice(cursor).map(({ push }) => push.push_id);
      if (unsent.length > 0) {
        await this.ctx.db.execute(sql`
          update push_outbox set status = ${s.queued}, next_attempt_at = null
          where status = ${s.sending} and push_id in ${sql.raw(`(${unsent.join(',')})`)}`);
      }
    }
    const [next] = readNextDue(
      await this.ctx.db.execute(
        sql`select min(next_attempt_at) as due from push_outbox where status in (${s.queued}, ${s.sending})`,
      ),
    );
    return { ...report, nextDueAt: next?.due ?? null };
  }

  private async claim(): Promise<ClaimedPush[]> {
    const now = this.ctx.clock.now();
    const leaseUntil = new Date(now.getTime() + CLAIM_LEASE_MS);
    return readClaimed(
      await this.ctx.db.execute(sql`
        with due as (
          select push_id from push_outbox
          where (status = ${s.queued} and (next_attempt_at is null or next_attempt_at <= ${now.toISOString()}::timestamptz))
             or (status = ${s.sending} and next_attempt_at <= ${now.toISOString()}::timestamptz)
          order by push_id
          limit ${BATCH_SIZE}
          for update skip locked
        ), claimed as (
          update push_outbox o
          set status = ${s.sending}, attempts = o.attempts + 1, next_attempt_at = ${leaseUntil.toISOString()}::timestamptz
          from due where o.push_id = due.push_id
          returning o.push_id, o.participant_id, o.target_token, o.title, o.body, o.attempts
        )
        select c.push_id, c.participant_id, c.target_token, c.title, c.body, c.attempts,
               p.push_notification_id as participant_token, p.status as participant_status
        from claimed c left join participants p on p.participant_id = c.participant_id
        order by c.push_id`),
    );
  }

  /**
   * The claimed messages that are never handed to a provider are finished together, one statement
   * per outcome: a participant discharged since, no provider configured, no token to send to. Without
   * a provider (or before tablets report tokens) that is every message, as many as a daily check
   * queues (a statement each kept the embedded database's one thread busy for minutes after it).
   * Returns the others, each with the token to send it to.
   */
  private async finishUnsendable(claimed: ClaimedPush[], report: DeliveryReport): Promise<Sendable[]> {
    const finished = new Map<string, number[]>();
    const sendable: Sendable[] = [];
    const provider = this.provider;
    for (const push of claimed) {
      // The participant's current token first: the app reports a new one on every start.
      const token = hasToken(push.participant_token) ? push.participant_token : push.target_token;
      let status: string;
      // A participant discharged after the message was queued gets nothing more.
      if (push.participant_status !== null && push.participant_status !== 'active') status = s.discharged;
      else if (!provider) status = s.noProvider;
      else if (!hasToken(token)) status = s.noToken;
      else {
        sendable.push({ push, token, provider });
        continue;
      }
      const ids = finished.get(status);
      if (ids) ids.push(push.push_id);
      else finished.set(status, [push.push_id]);
    }
    for (const [status, ids] of finished) {
      report.notSent += ids.length;
      await this.ctx.db.execute(sql`
        update push_outbox set status = ${status}, last_error = null, next_attempt_at = null
        where push_id = any(${idArray(ids)})`);
    }
    return sendable;
  }

  private async deliverOne({ push, token, provider }: Sendable, report: DeliveryReport): Promise<void> {
    let result: PushResult;
    try {
      result = await provider.send({ token, title: push.title, body: push.body });
    } catch (error) {
      result = { outcome: 'retry', error: (error as Error).message };
    }
    switch (result.outcome) {
      case 'sent':
        report.sent++;
        await this.ctx.db.execute(sql`
          with sent as (
            update push_outbox set status = ${s.sent}, sent_at = ${this.ctx.clock.now().toISOString()}::timestamptz,
              last_error = null, next_attempt_at = null, target_token = ${token}
            where push_id = ${push.push_id}
            returning participant_id
          )
          ${followupDelivered}`);
        return;
      case 'retry': {
        if (push.attempts >= MAX_ATTEMPTS) {
          report.failed++;
          return this.finish(
            push.push_id,
            s.failed,
            `gave up after ${push.attempts} attempts; last: ${result.error}`,
            token,
          );
        }
        report.retrying++;
        const due = new Date(
          this.ctx.clock.now().getTime() + retryDelayMs(push.attempts, result.retryAfterMs),
        );
        this.ctx.logger.warn(
          { push_id: push.push_id, attempts: push.attempts },
          'push message will be retried',
        );
        await this.ctx.db.execute(sql`
          update push_outbox set status = ${s.queued}, last_error = ${result.error}, next_attempt_at = ${due.toISOString()}::timestamptz
          where push_id = ${push.push_id}`);
        return;
      }
      case 'unregistered':
        report.failed++;
        await this.ctx.db.transaction(async (tx) => {
          await tx.execute(sql`
            with sent as (
              update push_outbox set status = ${s.unregistered}, last_error = ${result.error}, next_attempt_at = null,
                target_token = ${token}
              where push_id = ${push.push_id}
              returning participant_id
            )
            ${followupFailed(this.ctx.clock.now())}`);
          // Only the token that failed: the app may have registered a new one meanwhile.
          await tx.execute(
            sql`update participants set push_notification_id = 'empty' where push_notification_id = ${token}`,
          );
          await tx.execute(
            sql`update authorized_devices set push_notification_id = null where push_notification_id = ${token}`,
          );
        });
        return;
      case 'failed':
        report.failed++;
        return this.finish(push.push_id, s.failed, result.error, token);
    }
  }

  /** A provider's failure, final: recorded with the token it went to, and counted for follow-up. */
  private async finish(pushId: number, status: string, error: string, token: string): Promise<void> {
    await this.ctx.db.execute(sql`
      with sent as (
        update push_outbox set status = ${status}, last_error = ${error}, next_attempt_at = null, target_token = ${token}
        where push_id = ${pushId}
        returning participant_id
      )
      ${followupFailed(this.ctx.clock.now())}`);
  }
}

/** Rows claimed by a sender that died go back to the queue, due now. */
export function releaseClaims(ctx: Pick<AppContext, 'db' | 'logger'>): Promise<void> {
  return withScope(instanceScope('push delivery'), () => releaseAllClaims(ctx));
}

async function releaseAllClaims(ctx: Pick<AppContext, 'db' | 'logger'>): Promise<void> {
  const released = readPushIds(
    await ctx.db.execute(sql`
      update push_outbox set status = ${s.queued}, next_attempt_at = null
      where status = ${s.sending} returning push_id`),
  );
  if (released.length > 0)
    ctx.logger.warn(
      { count: released.length },
      'push messages claimed by a stopped process are queued again',
    );
}

/** The delivery job: on demand (after a message is queued) and every minute as a safety net. */
export function pushDeliveryJob(ctx: AppContext): JobDefinition<never> {
  const delivery = new PushDelivery(ctx, createPushProvider(ctx.config), () => ctx.jobs.stopping);
  return {
    name: PUSH_DELIVER_JOB,
    policy: 'stately',
    retryLimit: 5,
    retryDelay: 30,
    expireInSeconds: 30 * 60,
    schedule: { cron: '* * * * *', timeZone: 'UTC' },
    // The queue is stately: the dead job was the only sender, so every row still marked as being
    // sent was its claim. Queued again, they go out now instead of when the claim lease ends. A
    // message whose request reached FCM but whose answer was never recorded is sent a second time
    // (at-least-once: at most CONCURRENCY messages per crash).
    async onOrphaned() {
      await releaseClaims(ctx);
      await requestPushDelivery(ctx);
    },
    async handler() {
      const result = await delivery.deliverDue();
      if (result.sent + result.retrying + result.failed + result.notSent > 0) {
        ctx.logger.info({ ...result, nextDueAt: result.nextDueAt?.toISOString() }, 'push messages delivered');
      }
      if (result.nextDueAt && result.nextDueAt > ctx.clock.now()) {
        await ctx.jobs.send(PUSH_DELIVER_JOB, {}, { startAfter: result.nextDueAt });
      }
    },
  };
}
