import { and, asc, eq, gt, gte, lt, or, sql } from 'drizzle-orm';
import { messages, roleSchema, type LoginBody, type Lockout } from '@pathway/contract';
import type { Database } from '../../db/client.js';
import { adminUsers, loginThrottle } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { SecretBoxError, type SecretBox } from '../../lib/secret-box.js';
import { HttpError, notFound } from '../../lib/http-error.js';
import { AuditService, type AuditActor } from '../audit/service.js';
import { verifyPassword } from './passwords.js';
import type { SessionService } from './sessions.js';
import { matchingTotpStep } from './totp.js';
import { totpSecretOf } from './totp-secrets.js';

/** Failures allowed before each further attempt must wait (1 s, 2 s, 4 s, ...). */
export const FREE_FAILURES = 3;
/** Failures in a row that lock the user name (for the address they came from). */
export const LOCK_AFTER_FAILURES = 10;
export const LOCK_MS = 15 * 60_000;

const unauthorized = () => new HttpError(401, messages.login.failed);

/** The address part of a throttle key: IPv6 clients are counted per /64 (one household or host). */
export function sourceOf(ip: string): string {
  const mapped = ip.replace(/^::ffff:/i, '');
  if (!mapped.includes(':')) return mapped;
  const [head] = mapped.split('::');
  const groups = (head ?? '').split(':').filter(Boolean);
  return `${groups.slice(0, 4).join(':')}::/64`;
}

export class LoginService {
  private readonly audit: AuditService;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly sessions: SessionService,
    private readonly secrets: SecretBox,
  ) {
    this.audit = new AuditService(db);
  }

  /**
   * Password, then TOTP, then replay check. Every failure looks the same to the caller (401, one
   * message) so nothing tells an attacker which part was wrong or whether the user exists.
   * Failures are counted per user name and source address: an outsider who guesses at a named
   * user slows and then locks only their own address's attempts, and the user still signs in
   * from theirs. What bounds guessing from many addresses at once is the per-address and overall
   * rate limits of the route, and the TOTP code a password alone never gets past.
   */
  async login(body: LoginBody, ip: string) {
    const now = this.clock.now();
    const key = body.user_name.toLowerCase();
    const source = sourceOf(ip);
    const typed: AuditActor = { adminUserId: null, userName: body.user_name, ip };

    const [throttle] = await this.db
      .select()
      .from(loginThrottle)
      .where(and(eq(loginThrottle.user_name, key), eq(loginThrottle.source, source)));
    // A throttled attempt is refused without looking at the password, so it cannot be used to guess.
    if (throttle && this.isThrottled(throttle, now)) throw unauthorized();

    const [admin] = await this.db
      .select()
      .from(adminUsers)
      .where(sql`lower(${adminUsers.user_name}) = ${key}`);
    const passwordOk = await verifyPassword(admin?.password_hash, body.password);
    const step =
      admin && passwordOk
        ? matchingTotpStep(admin.user_name, this.totpSecretOf(admin.totp_secret), body.mfa_token, now)
        : null;
    if (!admin || step === null) {
      await this.recordFailure(key, source, now, { ...typed, adminUserId: admin?.admin_user_id ?? null });
      throw unauthorized();
    }
    // Claim the time step atomically: of two requests with the same code, only one wins.
    const claimed = await this.db
      .update(adminUsers)
      .set({ totp_last_step: step })
      .where(and(eq(adminUsers.admin_user_id, admin.admin_user_id), lt(adminUsers.totp_last_step, step)))
      .returning({ id: adminUsers.admin_user_id });
    if (claimed.length === 0) {
      await this.recordFailure(key, source, now, { ...typed, adminUserId: admin.admin_user_id });
      throw unauthorized();
    }
    const role = roleSchema.parse(admin.role);
    const session = await this.db.transaction(async (tx) => {
      await tx
        .delete(loginThrottle)
        .where(and(eq(loginThrottle.user_name, key), eq(loginThrottle.source, source)));
      await this.audit.record(
        { adminUserId: admin.admin_user_id, userName: admin.user_name, ip },
        { action: 'signin.success' },
        tx,
      );
      return this.sessions.start(admin.admin_user_id, role, ip, tx);
    });
    return { admin, role, ...session };
  }

  /**
   * The admin's TOTP secret. Start-up checked that this instance's key opens every stored secret;
   * one that no longer opens was re-sealed since by `rotate-secrets-key` (PostgreSQL, with this
   * instance still running on the old key): 503 until it restarts with the new key, not a 500.
   */
  private totpSecretOf(stored: string): string {
    try {
      return totpSecretOf(this.secrets, stored);
    } catch (error) {
      if (error instanceof SecretBoxError)
        throw Object.assign(new HttpError(503, messages.generic.unavailable), { cause: error });
      throw error;
    }
  }

  private isThrottled(row: typeof loginThrottle.$inferSelect, now: Date): boolean {
    if (row.locked_until && row.locked_until > now) return true;
    if (row.failures < FREE_FAILURES) return false;
    const waitMs = 1000 * 2 ** (row.failures - FREE_FAILURES);
    return now.getTime() < row.last_failure_at.getTime() + waitMs;
  }

  private async recordFailure(key: string, source: string, now: Date, typed: AuditActor): Promise<void> {
    const nowSql = sql`${now.toISOString()}::timestamptz`;
    // A lock that has run out starts the count again; the count is kept in SQL so that
    // concurrent failures on several instances all count.
    const failures = sql`case when ${loginThrottle.locked_until} <= ${nowSql} then 1 else ${loginThrottle.failures} + 1 end`;
    await this.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(loginThrottle)
        .values({ user_name: key, source, failures: 1, last_failure_at: now })
        .onConflictDoUpdate({
          target: [loginThrottle.user_name, loginThrottle.source],
          set: {
            failures,
            last_failure_at: now,
            locked_until: sql`case when ${failures} >= ${LOCK_AFTER_FAILURES} then ${new Date(now.getTime() + LOCK_MS).toISOString()}::timestamptz else null end`,
          },
        })
        .returning({ failures: loginThrottle.failures });
      // The user name as typed, never the password or the code.
      await this.audit.record(typed, { action: 'signin.failure' }, tx);
      if (row!.failures === LOCK_AFTER_FAILURES) {
        await this.audit.record(
          typed,
          { action: 'signin.lockout', detail: `locked for ${LOCK_MS / 60_000} minutes from ${source}` },
          tx,
        );
      }
    });
  }

  /** User names whose sign-ins are locked or slowed down now, from which addresses. */
  async lockouts(): Promise<Lockout[]> {
    const now = this.clock.now();
    const rows = await this.db
      .select()
      .from(loginThrottle)
      .where(or(gt(loginThrottle.locked_until, now), gte(loginThrottle.failures, FREE_FAILURES)))
      .orderBy(asc(loginThrottle.user_name), asc(loginThrottle.source));
    return rows
      .filter((r) => this.isThrottled(r, now) || (r.locked_until !== null && r.locked_until > now))
      .map((r) => ({
        user_name: r.user_name,
        source: r.source || null,
        failures: r.failures,
        last_failure_at: r.last_failure_at.toISOString(),
        locked_until: r.locked_until && r.locked_until > now ? r.locked_until.toISOString() : null,
      }));
  }

  /** Lifts every lock and slow-down of a user name (all addresses), audited with who did it. */
  async unlock(userName: string, actor: AuditActor): Promise<void> {
    const key = userName.toLowerCase();
    await this.db.transaction(async (tx) => {
      const removed = await tx
        .delete(loginThrottle)
        .where(eq(loginThrottle.user_name, key))
        .returning({ source: loginThrottle.source });
      if (removed.length === 0) throw notFound(messages.admin.lockNotFound);
      await this.audit.record(
        actor,
        { action: 'signin.unlock', detail: `user name ${key}; ${removed.length} address(es)` },
        tx,
      );
    });
  }
}
