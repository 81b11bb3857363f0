import { and, eq, lt, sql } from 'drizzle-orm';
import { messages, roleSchema, type LoginBody } from '@pathway/contract';
import type { Database } from '../../db/client.js';
import { adminUsers, loginThrottle } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { HttpError } from '../../lib/http-error.js';
import { verifyPassword } from './passwords.js';
import type { SessionService } from './sessions.js';
import { matchingTotpStep } from './totp.js';

/** Failures allowed before each further attempt must wait (1 s, 2 s, 4 s, ...). */
export const FREE_FAILURES = 3;
/** Failures in a row that lock the user name. */
export const LOCK_AFTER_FAILURES = 10;
export const LOCK_MS = 15 * 60_000;

const unauthorized = () => new HttpError(401, messages.login.failed);

export class LoginService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly sessions: SessionService,
  ) {}

  /**
   * Password, then TOTP, then replay check. Every failure looks the same to the caller (401, one
   * message) so nothing tells an attacker which part was wrong or whether the user exists.
   */
  async login(body: LoginBody, ip: string) {
    const now = this.clock.now();
    const key = body.user_name.toLowerCase();

    const [throttle] = await this.db.select().from(loginThrottle).where(eq(loginThrottle.user_name, key));
    // A throttled attempt is refused without looking at the password, so it cannot be used to guess.
    if (throttle && this.isThrottled(throttle, now)) throw unauthorized();

    const [admin] = await this.db
      .select()
      .from(adminUsers)
      .where(sql`lower(${adminUsers.user_name}) = ${key}`);
    const passwordOk = await verifyPassword(admin?.password_hash, body.password);
    const step =
      admin && passwordOk ? matchingTotpStep(admin.user_name, admin.totp_secret, body.mfa_token, now) : null;
    if (!admin || step === null) {
      await this.recordFailure(key, now);
      throw unauthorized();
    }
    // Claim the time step atomically: of two requests with the same code, only one wins.
    const claimed = await this.db
      .update(adminUsers)
      .set({ totp_last_step: step })
      .where(and(eq(adminUsers.admin_user_id, admin.admin_user_id), lt(adminUsers.totp_last_step, step)))
      .returning({ id: adminUsers.admin_user_id });
    if (claimed.length === 0) {
      await this.recordFailure(key, now);
      throw unauthorized();
    }
    await this.db.delete(loginThrottle).where(eq(loginThrottle.user_name, key));
    const role = roleSchema.parse(admin.role);
    const session = await this.sessions.start(admin.admin_user_id, role, ip);
    return { admin, role, ...session };
  }

  private isThrottled(row: typeof loginThrottle.$inferSelect, now: Date): boolean {
    if (row.locked_until && row.locked_until > now) return true;
    if (row.failures < FREE_FAILURES) return false;
    const waitMs = 1000 * 2 ** (row.failures - FREE_FAILURES);
    return now.getTime() < row.last_failure_at.getTime() + waitMs;
  }

  private async recordFailure(key: string, now: Date): Promise<void> {
    const nowSql = sql`${now.toISOString()}::timestamptz`;
    // A lock that has run out starts the count again; the count is kept in SQL so that
    // concurrent failures on several instances all count.
    const failures = sql`case when ${loginThrottle.locked_until} <= ${nowSql} then 1 else ${loginThrottle.failures} + 1 end`;
    await this.db
      .insert(loginThrottle)
      .values({ user_name: key, failures: 1, last_failure_at: now })
      .onConflictDoUpdate({
        target: loginThrottle.user_name,
        set: {
          failures,
          last_failure_at: now,
          locked_until: sql`case when ${failures} >= ${LOCK_AFTER_FAILURES} then ${new Date(now.getTime() + LOCK_MS).toISOString()}::timestamptz else null end`,
        },
      });
  }
}
