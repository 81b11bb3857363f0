import { and, asc, eq, gt, gte, isNull, lt, or, sql } from 'drizzle-orm';
import {
  messages,
  roleSchema,
  type ChangePasswordBody,
  type LoginBody,
  type Lockout,
  type StepUpBody,
} from '@pathway/contract';
import type { Database } from '../../db/client.js';
import { adminUsers, loginThrottle } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { SecretBoxError, type SecretBox } from '../../lib/secret-box.js';
import { HttpError, badRequest, notFound } from '../../lib/http-error.js';
import type { StaffSession } from '../../lib/staff-session.js';
import { type AuditActor, AuditService } from '../audit/index.js';
import { passwordSignInPolicy } from './sso-requirement.js';
import { assertAcceptablePassword } from './password-policy.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { endSessionsOf, type StaffSessions } from './sessions.js';
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
    private readonly sessions: StaffSessions,
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
    const step = admin && passwordOk ? this.totpStepOf(admin, body.mfa_token, now) : null;
    // A failure under a user name nobody has is the instance's record; anyone's else, their organisation's.
    const attempt = {
      ...typed,
      adminUserId: admin?.admin_user_id ?? null,
      organisationId: admin?.organisation_id ?? null,
    };
    if (!admin || step === null) {
      await this.recordFailure(key, source, now, attempt);
      throw unauthorized();
    }
    if (!(await this.claimTotpStep(admin.admin_user_id, step))) {
      await this.recordFailure(key, source, now, attempt);
      throw unauthorized();
    }
    const role = roleSchema.parse(admin.role);
    const actor: AuditActor = {
      adminUserId: admin.admin_user_id,
      userName: admin.user_name,
      ip,
      organisationId: admin.organisation_id,
    };
    // Checked once the credentials are proven right, so the answer tells a guesser nothing.
    const policy = await passwordSignInPolicy(this.db, admin);
    if (policy === 'refused') {
      await this.audit.record(actor, { action: 'signin.password_refused' });
      throw new HttpError(403, messages.sso.passwordNotAllowed);
    }
    const session = await this.db.transaction(async (tx) => {
      await tx
        .delete(loginThrottle)
        .where(and(eq(loginThrottle.user_name, key), eq(loginThrottle.source, source)));
      await this.audit.record(
        actor,
        policy === 'break-glass'
          ? { action: 'signin.break_glass', detail: 'password and code while single sign-on is required' }
          : { action: 'signin.success', detail: 'password and code' },
        tx,
      );
      return this.sessions.start(admin.admin_user_id, role, ip, tx);
    });
    return { admin, role, ...session };
  }

  /**
   * Claims a code's time step atomically, so a code is used once: of two requests with the same
   * code (or a code seen over a shoulder and typed again), only one wins. False: already used.
   */
  private async claimTotpStep(adminUserId: number, step: number): Promise<boolean> {
    const claimed = await this.db
      .update(adminUsers)
      .set({ totp_last_step: step })
      .where(and(eq(adminUsers.admin_user_id, adminUserId), lt(adminUsers.totp_last_step, step)))
      .returning({ id: adminUsers.admin_user_id });
    return claimed.length > 0;
  }

  /**
   * The time step of a code of this admin's authenticator, or null: every read of the stored TOTP
   * secret (sign-in, changing one's own password, step-up) goes through here.
   */
  private totpStepOf(admin: typeof adminUsers.$inferSelect, code: string, now: Date): number | null {
    return matchingTotpStep(admin.user_name, this.totpSecretOf(admin.totp_secret), code, now);
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
    return this.throttleWaitMs(row, now) > 0;
  }

  /** How long the next attempt of this user name from this address must wait (0: it may go now). */
  private throttleWaitMs(row: typeof loginThrottle.$inferSelect, now: Date): number {
    if (row.locked_until && row.locked_until > now) return row.locked_until.getTime() - now.getTime();
    if (row.failures < FREE_FAILURES) return 0;
    const waitMs = 1000 * 2 ** (row.failures - FREE_FAILURES);
    return Math.max(0, row.last_failure_at.getTime() + waitMs - now.getTime());
  }

  /**
   * A signed-in admin changes their own password, proving with their current password and a fresh
   * TOTP code that it is them and not someone holding their session cookie (`reauthenticate`).
   * The change ends every session of the admin, this one included, in its transaction.
   */
  async changeOwnPassword(staff: StaffSession, body: ChangePasswordBody, ip: string): Promise<void> {
    const now = this.clock.now();
    const [admin] = await this.db
      .select()
      .from(adminUsers)
      .where(eq(adminUsers.admin_user_id, staff.adminUserId));
    if (!admin) throw new HttpError(401, messages.session.required);
    // The refusals that cost no guess come first: they say nothing about the current password.
    if (body.new_password === body.current_password) throw badRequest(messages.admin.passwordSameAsCurrent);
    await assertAcceptablePassword(body.new_password, admin.user_name);

    const { key, source, actor } = await this.reauthenticate(
      staff,
      admin,
      { password: body.current_password, mfaToken: body.mfa_token },
      ip,
      now,
      { during: 'changing own password', message: messages.admin.currentPasswordWrong },
    );

    const passwordHash = await hashPassword(body.new_password);
    await this.db.transaction(async (tx) => {
      await tx
        .update(adminUsers)
        .set({ password_hash: passwordHash })
        .where(eq(adminUsers.admin_user_id, admin.admin_user_id));
      await endSessionsOf(tx, admin.admin_user_id);
      // Proven to be them: earlier failures from this address no longer slow them down.
      await tx
        .delete(loginThrottle)
        .where(and(eq(loginThrottle.user_name, key), eq(loginThrottle.source, source)));
      await this.audit.record(actor, { action: 'admin.password_change' }, tx);
    });
  }

  /**
   * Step-up: the signed-in admin proves again, with their password and a fresh TOTP
   * code, that they and not a stolen cookie are at the keyboard; the session may then take
   * dangerous actions for STEP_UP_MAX_AGE_MINUTES. Checked and counted exactly like changing one's
   * own password (`reauthenticate`).
   */
  async stepUp(staff: StaffSession, body: StepUpBody, ip: string): Promise<void> {
    const now = this.clock.now();
    const [admin] = await this.db
      .select()
      .from(adminUsers)
      .where(eq(adminUsers.admin_user_id, staff.adminUserId));
    if (!admin) throw new HttpError(401, messages.session.required);
    const { key, source, actor } = await this.reauthenticate(
      staff,
      admin,
      { password: body.password, mfaToken: body.mfa_token.trim() },
      ip,
      now,
      { during: 'step-up', message: messages.stepUp.wrong },
    );
    await this.db.transaction(async (tx) => {
      await tx
        .delete(loginThrottle)
        .where(and(eq(loginThrottle.user_name, key), eq(loginThrottle.source, source)));
      await this.sessions.markAuthenticated(staff.sessionId, tx);
      await this.audit.record(actor, { action: 'session.step_up' }, tx);
    });
  }

  /**
   * The signed-in admin proves again that they are at the keyboard (changing their own password,
   * step-up): their password and a fresh TOTP code, checked and counted like a sign-in from this
   * address. A wrong one is a sign-in failure of their user name (audited, `during` as its detail;
   * it slows and then locks that address) answered 400 with `message`; an attempt while slowed or
   * locked is refused unchecked (429 with Retry-After); when the lock falls, the session that made
   * the attempts ends. A stolen cookie thus gets no more guesses at the password than the sign-in
   * form gives. The code is claimed like a sign-in's, so one seen over a shoulder cannot be used
   * again. Answers the throttle key (user name, address), which the caller clears in the
   * transaction of what was proven for, and the admin as the audit's actor.
   */
  private async reauthenticate(
    staff: StaffSession,
    admin: typeof adminUsers.$inferSelect,
    proof: { password: string; mfaToken: string },
    ip: string,
    now: Date,
    refusal: { during: string; message: string },
  ): Promise<{ key: string; source: string; actor: AuditActor }> {
    const key = admin.user_name.toLowerCase();
    const source = sourceOf(ip);
    const actor: AuditActor = { adminUserId: admin.admin_user_id, userName: admin.user_name, ip };
    const [throttle] = await this.db
      .select()
      .from(loginThrottle)
      .where(and(eq(loginThrottle.user_name, key), eq(loginThrottle.source, source)));
    const waitMs = throttle ? this.throttleWaitMs(throttle, now) : 0;
    if (waitMs > 0) {
      const seconds = Math.max(1, Math.ceil(waitMs / 1000));
      throw new HttpError(429, messages.admin.tooManyWrongAttempts(seconds), {
        'retry-after': String(seconds),
      });
    }

    const passwordOk = await verifyPassword(admin.password_hash, proof.password);
    const step = passwordOk ? this.totpStepOf(admin, proof.mfaToken, now) : null;
    if (step === null || !(await this.claimTotpStep(admin.admin_user_id, step))) {
      const failures = await this.recordFailure(key, source, now, actor, refusal.during);
      if (failures >= LOCK_AFTER_FAILURES) await this.sessions.end(staff.sessionId);
      throw badRequest(refusal.message);
    }
    return { key, source, actor };
  }

  /** Counts one failure of a user name from an address; answers the failures in a row so far. */
  private async recordFailure(
    key: string,
    source: string,
    now: Date,
    typed: AuditActor,
    /** What was being done, when it was not the sign-in form (recorded as the event's detail). */
    during?: string,
  ): Promise<number> {
    const nowSql = sql`${now.toISOString()}::timestamptz`;
    // A lock that has run out starts the count again; the count is kept in SQL so that
    // concurrent failures on several instances all count.
    const failures = sql`case when ${loginThrottle.locked_until} <= ${nowSql} then 1 else ${loginThrottle.failures} + 1 end`;
    return this.db.transaction(async (tx) => {
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
      await this.audit.record(typed, { action: 'signin.failure', detail: during ?? null }, tx);
      if (row!.failures === LOCK_AFTER_FAILURES) {
        await this.audit.record(
          typed,
          { action: 'signin.lockout', detail: `locked for ${LOCK_MS / 60_000} minutes from ${source}` },
          tx,
        );
      }
      return row!.failures;
    });
  }

  /**
   * User names whose sign-ins are locked now, or slowed down (FREE_FAILURES or more failures in a
   * row without a lock: each further failure from that address waits twice as long as the last),
   * from which addresses. A slowed-down row stays listed until a sign-in succeeds, the lock is
   * lifted or the retention job prunes the quiet counter, so full-access staff can see and lift
   * it, not only during the seconds an attempt would be refused. A lock that has run out is not
   * listed: the next failure starts the count again.
   */
  async lockouts(): Promise<Lockout[]> {
    const now = this.clock.now();
    const rows = await this.db
      .select()
      .from(loginThrottle)
      .where(
        or(
          gt(loginThrottle.locked_until, now),
          and(isNull(loginThrottle.locked_until), gte(loginThrottle.failures, FREE_FAILURES)),
        ),
      )
      .orderBy(asc(loginThrottle.user_name), asc(loginThrottle.source));
    return rows.map((r) => ({
      user_name: r.user_name,
      source: r.source || null,
      failures: r.failures,
      last_failure_at: r.last_failure_at.toISOString(),
      locked_until: r.locked_until ? r.locked_until.toISOString() : null,
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
