import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, type AuditAction } from '@pathway/contract';
import { adminUsers, auditEvents, loginThrottle } from '../../db/schema.js';
import {
  ManualClock,
  createAdmin,
  createTestApp,
  signedInCookie,
  type TestAdmin,
  type TestApp,
} from '../../../test/harness.js';
import { FREE_FAILURES, LOCK_AFTER_FAILURES } from '../auth/login-service.js';
import { totpCode } from '../auth/totp.js';
import { totpSecretOf } from '../auth/totp-secrets.js';

/**
 * Staff account recovery: a full-access admin resets another admin's authenticator or password,
 * and every admin changes their own password with the current one and a fresh code. Time is a
 * manual clock, so codes, throttling waits and locks are exact.
 */
const clock = new ManualClock(new Date('2026-05-04T08:00:00Z'));
let t: TestApp;
let full: { cookie: string; admin: TestAdmin };
let basic: { cookie: string; admin: TestAdmin };

beforeAll(async () => {
  t = await createTestApp({ clock });
  full = await signedInCookie(t.ctx, 'full access');
  basic = await signedInCookie(t.ctx, 'basic access');
});
afterAll(() => t.close());

/** A new time step, so every code a test makes has not been used yet. */
const nextStep = () => clock.advance(31_000);

function call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, cookie?: string, payload?: object) {
  return t.app.inject({
    method,
    url,
    headers: cookie ? { cookie } : {},
    ...(payload && { payload }),
  });
}

function login(userName: string, password: string, secret: string, remoteAddress = '127.0.0.1') {
  return t.app.inject({
    method: 'POST',
    url: '/login',
    payload: { user_name: userName, password, mfa_token: totpCode(userName, secret, clock.now()) },
    remoteAddress,
  });
}

async function sessionAlive(cookie: string): Promise<boolean> {
  const res = await call('GET', '/api/session', cookie);
  return res.statusCode === 200;
}

async function adminRow(id: number) {
  const [row] = await t.ctx.database.db.select().from(adminUsers).where(eq(adminUsers.admin_user_id, id));
  return row!;
}

function storedSecretOf(row: { totp_secret: string }): string {
  return totpSecretOf(t.ctx.secrets, row.totp_secret);
}

async function auditRows(action: AuditAction) {
  return t.ctx.database.db.select().from(auditEvents).where(eq(auditEvents.action, action));
}

/** A second signed-in session of an admin (say a phone beside the desk). */
async function anotherSession(admin: TestAdmin): Promise<string> {
  const { token } = await t.ctx.sessions.start(admin.admin_user_id, admin.role, '198.51.100.7');
  return `jwt=${token}`;
}

describe("resetting another admin's authenticator", () => {
  it('is for full access only, and never for oneself', async () => {
    const target = await createAdmin(t.ctx, 'basic access');
    const url = `/api/admin/${encodeURIComponent(target.user_name)}/reset-authenticator`;
    expect((await call('POST', url)).statusCode).toBe(401);
    expect((await call('POST', url, basic.cookie)).statusCode).toBe(403);
    const self = await call(
      'POST',
      `/api/admin/${encodeURIComponent(full.admin.user_name)}/reset-authenticator`,
      full.cookie,
    );
    expect(self.statusCode).toBe(409);
    expect(self.json().message).toBe(messages.admin.resetOwnAccount);
    const unknown = await call('POST', '/api/admin/nobody.at.all/reset-authenticator', full.cookie);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(messages.admin.notFound);
    // Nobody's authenticator changed (the column holds the secret sealed: auth/totp-secrets.ts).
    expect(storedSecretOf(await adminRow(target.admin_user_id))).toBe(target.totpSecret);
    expect(storedSecretOf(await adminRow(full.admin.admin_user_id))).toBe(full.admin.totpSecret);
  });

  it('answers a new QR code once, ends every session of theirs, and only the new codes sign in', async () => {
    const target = await createAdmin(t.ctx, 'full access');
    const firstSession = await anotherSession(target);
    const secondSession = await anotherSession(target);
    const before = (await auditRows('admin.authenticator_reset')).length;

    const res = await call(
      'POST',
      `/api/admin/${encodeURIComponent(target.user_name)}/reset-authenticator`,
      full.cookie,
    );
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      user_name: target.user_name,
      role: 'full access',
      message: messages.admin.authenticatorReset,
    });
    expect(body.qr_code).toMatch(/^data:image\/png;base64,/);
    const newSecret = new URL(body.otpauth_url).searchParams.get('secret')!;
    expect(newSecret).toMatch(/^[A-Z2-7]{32}$/);
    expect(newSecret).not.toBe(target.totpSecret);
    expect(JSON.stringify(body)).not.toContain('password');

    expect(await sessionAlive(firstSession)).toBe(false);
    expect(await sessionAlive(secondSession)).toBe(false);
    expect(await sessionAlive(full.cookie)).toBe(true);

    nextStep();
    expect((await login(target.user_name, target.password, target.totpSecret)).statusCode).toBe(401);
    nextStep();
    expect((await login(target.user_name, target.password, newSecret)).statusCode).toBe(200);

    const audited = await auditRows('admin.authenticator_reset');
    expect(audited.length).toBe(before + 1);
    expect(audited.at(-1)).toMatchObject({
      admin_user_id: full.admin.admin_user_id,
      admin_user_name: full.admin.user_name,
      participant_id: null,
    });
    expect(audited.at(-1)!.detail).toContain(target.user_name);
    expect(audited.at(-1)!.detail).not.toContain(newSecret);
  });
});

describe("resetting another admin's password", () => {
  const resetUrl = (userName: string) => `/api/admin/${encodeURIComponent(userName)}/reset-password`;

  it('is for full access only, and never for oneself', async () => {
    const target = await createAdmin(t.ctx, 'basic access');
    const payload = { new_password: 'plum engine lantern seventy' };
    expect((await call('POST', resetUrl(target.user_name), undefined, payload)).statusCode).toBe(401);
    expect((await call('POST', resetUrl(target.user_name), basic.cookie, payload)).statusCode).toBe(403);
    const self = await call('POST', resetUrl(full.admin.user_name), full.cookie, payload);
    expect(self.statusCode).toBe(409);
    expect(self.json().message).toBe(messages.admin.resetOwnAccount);
    expect((await call('POST', resetUrl('nobody.at.all'), full.cookie, payload)).statusCode).toBe(404);
    nextStep();
    expect((await login(target.user_name, target.password, target.totpSecret)).statusCode).toBe(200);
  });

  it('applies the password policy, and a refused password changes nothing', async () => {
    const target = await createAdmin(t.ctx, 'basic access');
    const session = await anotherSession(target);
    const hashBefore = (await adminRow(target.admin_user_id)).password_hash;
    const auditedBefore = (await auditRows('admin.password_reset')).length;
    const cases: [string | undefined, string][] = [
      [undefined, messages.admin.passwordEmpty],
      ['', messages.admin.passwordEmpty],
      ['short', messages.admin.passwordShort],
      ['password1234', messages.admin.passwordCommon],
      ['Password12345', messages.admin.passwordCommon],
      [`${target.user_name}-2026`, messages.admin.passwordIsUserName],
    ];
    for (const [newPassword, message] of cases) {
      const res = await call(
        'POST',
        resetUrl(target.user_name),
        full.cookie,
        newPassword === undefined ? {} : { new_password: newPassword },
      );
      expect(res.statusCode, String(newPassword)).toBe(400);
      expect(res.json().message).toBe(message);
    }
    expect((await adminRow(target.admin_user_id)).password_hash).toBe(hashBefore);
    expect(await sessionAlive(session)).toBe(true);
    expect((await auditRows('admin.password_reset')).length).toBe(auditedBefore);
  });

  it('sets the new password, ends every session of theirs and is audited', async () => {
    const target = await createAdmin(t.ctx, 'basic access');
    const session = await anotherSession(target);
    const newPassword = 'copper meadow violin ninety';
    const res = await call('POST', resetUrl(target.user_name.toUpperCase()), full.cookie, {
      new_password: newPassword,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: messages.admin.passwordReset });
    expect(await sessionAlive(session)).toBe(false);

    nextStep();
    expect((await login(target.user_name, target.password, target.totpSecret)).statusCode).toBe(401);
    nextStep();
    expect((await login(target.user_name, newPassword, target.totpSecret)).statusCode).toBe(200);

    const audited = (await auditRows('admin.password_reset')).at(-1)!;
    expect(audited).toMatchObject({ admin_user_id: full.admin.admin_user_id });
    expect(audited.detail).toContain(target.user_name);
    expect(audited.detail).not.toContain(newPassword);
  });
});

describe('changing one’s own password', () => {
  const url = '/api/account/password';

  function change(cookie: string, admin: TestAdmin, fields: Record<string, string> = {}) {
    return t.app.inject({
      method: 'POST',
      url,
      headers: { cookie },
      payload: {
        current_password: admin.password,
        new_password: 'saffron harbour kettle drum',
        mfa_token: totpCode(admin.user_name, admin.totpSecret, clock.now()),
        ...fields,
      },
    });
  }

  async function failuresOf(admin: TestAdmin) {
    const rows = await t.ctx.database.db
      .select()
      .from(loginThrottle)
      .where(eq(loginThrottle.user_name, admin.user_name.toLowerCase()));
    return rows[0]?.failures ?? 0;
  }

  it('needs a session', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url,
      payload: { current_password: 'x', new_password: 'saffron harbour kettle drum', mfa_token: '123456' },
    });
    expect(res.statusCode).toBe(401);
  });

  it('refuses a new password the policy refuses, before the current one is checked or counted', async () => {
    const me = await signedInCookie(t.ctx, 'basic access');
    const hashBefore = (await adminRow(me.admin.admin_user_id)).password_hash;
    const cases: [Record<string, string>, string][] = [
      [{ new_password: 'short' }, messages.admin.passwordShort],
      [{ new_password: 'qwertyuiop123' }, messages.admin.passwordCommon],
      [{ new_password: `${me.admin.user_name}!!` }, messages.admin.passwordIsUserName],
      [{ new_password: me.admin.password }, messages.admin.passwordSameAsCurrent],
      [{ current_password: '' }, messages.admin.currentPasswordEmpty],
      [{ mfa_token: '' }, messages.admin.mfaEmpty],
    ];
    for (const [fields, message] of cases) {
      nextStep();
      const res = await change(me.cookie, me.admin, fields);
      expect(res.statusCode, JSON.stringify(fields)).toBe(400);
      expect(res.json().message).toBe(message);
    }
    expect(await failuresOf(me.admin)).toBe(0);
    expect((await adminRow(me.admin.admin_user_id)).password_hash).toBe(hashBefore);
    expect(await sessionAlive(me.cookie)).toBe(true);
  });

  it('refuses a wrong current password or code with 400, counts it as a sign-in failure, and changes nothing', async () => {
    const me = await signedInCookie(t.ctx, 'basic access');
    const before = await adminRow(me.admin.admin_user_id);
    const failuresAudited = (await auditRows('signin.failure')).length;

    nextStep();
    const wrongPassword = await change(me.cookie, me.admin, { current_password: 'not my password at all' });
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json().message).toBe(messages.admin.currentPasswordWrong);
    nextStep();
    const wrongCode = await change(me.cookie, me.admin, {
      mfa_token: totpCode(me.admin.user_name, me.admin.totpSecret, new Date(clock.now().getTime() - 600_000)),
    });
    expect(wrongCode.statusCode).toBe(400);
    expect(wrongCode.json().message).toBe(messages.admin.currentPasswordWrong);

    const after = await adminRow(me.admin.admin_user_id);
    expect(after.password_hash).toBe(before.password_hash);
    expect(after.totp_last_step).toBe(before.totp_last_step);
    expect(await sessionAlive(me.cookie)).toBe(true);
    expect(await failuresOf(me.admin)).toBe(2);
    const failures = (await auditRows('signin.failure')).slice(failuresAudited);
    expect(failures.map((f) => [f.admin_user_id, f.detail])).toEqual([
      [me.admin.admin_user_id, 'changing own password'],
      [me.admin.admin_user_id, 'changing own password'],
    ]);
    expect(
      (await auditRows('admin.password_change')).some((r) => r.admin_user_id === me.admin.admin_user_id),
    ).toBe(false);
  });

  it('slows a stolen cookie down like the sign-in form, then locks and ends its session', async () => {
    const victim = await createAdmin(t.ctx, 'full access');
    const stolen = await anotherSession(victim);
    const elsewhere = await anotherSession(victim);
    const hashBefore = (await adminRow(victim.admin_user_id)).password_hash;
    const guess = (n: number) => change(stolen, victim, { current_password: `guess number ${n} of many` });

    for (let i = 0; i < FREE_FAILURES; i++) expect((await guess(i)).statusCode).toBe(400);
    // From here each failure must wait twice as long as the one before, unchecked meanwhile.
    const early = await guess(99);
    expect(early.statusCode).toBe(429);
    expect(early.headers['retry-after']).toBe('1');
    expect(early.json().message).toBe(messages.admin.tooManyWrongAttempts(1));
    // Refused unchecked: even the right password is not looked at while slowed down.
    expect((await change(stolen, victim)).statusCode).toBe(429);
    expect(await failuresOf(victim)).toBe(FREE_FAILURES);

    for (let failures = FREE_FAILURES; failures < LOCK_AFTER_FAILURES; failures++) {
      clock.advance(1000 * 2 ** (failures - FREE_FAILURES));
      expect((await guess(failures)).statusCode).toBe(400);
    }
    expect(await failuresOf(victim)).toBe(LOCK_AFTER_FAILURES);
    // The lock ends the session that made the guesses; the victim's other session is untouched.
    expect(await sessionAlive(stolen)).toBe(false);
    expect(await sessionAlive(elsewhere)).toBe(true);
    const locked = await change(elsewhere, victim);
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(14 * 60);
    expect((await adminRow(victim.admin_user_id)).password_hash).toBe(hashBefore);
    const lockouts = await t.ctx.database.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.action, 'signin.lockout'), eq(auditEvents.admin_user_id, victim.admin_user_id)),
      );
    expect(lockouts.length).toBe(1);

    // A full-access admin lifts the lock; the victim then changes their password.
    const lift = await t.app.inject({
      method: 'DELETE',
      url: `/api/lockouts/${encodeURIComponent(victim.user_name)}`,
      headers: { cookie: full.cookie },
    });
    expect(lift.statusCode).toBe(200);
    nextStep();
    expect((await change(elsewhere, victim)).statusCode).toBe(200);
  });

  it('changes it with the current password and a fresh code, ends every session, and signs in with the new one', async () => {
    const me = await signedInCookie(t.ctx, 'basic access');
    const otherSession = await anotherSession(me.admin);
    const newPassword = 'indigo falcon pebble orchard';
    nextStep();
    const code = totpCode(me.admin.user_name, me.admin.totpSecret, clock.now());
    const res = await change(me.cookie, me.admin, { new_password: newPassword, mfa_token: code });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: messages.admin.passwordChanged });
    const cleared = res.cookies.find((c) => c.name === 'jwt');
    expect(cleared?.value).toBe('');
    expect(await sessionAlive(me.cookie)).toBe(false);
    expect(await sessionAlive(otherSession)).toBe(false);

    // The code was used: it cannot sign in, nor change the password again.
    const replay = await t.app.inject({
      method: 'POST',
      url: '/login',
      payload: { user_name: me.admin.user_name, password: newPassword, mfa_token: code },
    });
    expect(replay.statusCode).toBe(401);
    nextStep();
    expect((await login(me.admin.user_name, me.admin.password, me.admin.totpSecret)).statusCode).toBe(401);
    nextStep();
    expect((await login(me.admin.user_name, newPassword, me.admin.totpSecret)).statusCode).toBe(200);

    const audited = (await auditRows('admin.password_change')).filter(
      (r) => r.admin_user_id === me.admin.admin_user_id,
    );
    expect(audited.length).toBe(1);
    expect(audited[0]!.admin_user_name).toBe(me.admin.user_name);
    expect(audited[0]!.detail).toBeNull();
  });
});

describe('security events of admin accounts in the audit trail', () => {
  it('records an admin added, their access level changed, and their deletion', async () => {
    // The manual clock has run on through the locks above: a fresh sign-in for the actions that
    // need one within 5 minutes (a role changed to full access, an authenticator reset).
    full = await signedInCookie(t.ctx, 'full access');
    const userName = `audited.${Date.now()}@example.org`;
    const created = await call('POST', '/api/admin', full.cookie, {
      user_name: userName,
      password: 'tangerine lighthouse ferry',
      role: 'basic access',
    });
    expect(created.statusCode).toBe(201);
    const id = created.json<{ admin_user_id: number }>().admin_user_id;
    // A change of names alone is no security event; a change of role is.
    await call('PATCH', `/api/admin/${userName}`, full.cookie, { first_name: 'Renamed' });
    await call('PATCH', `/api/admin/${userName}`, full.cookie, { role: 'full access' });
    await call('PATCH', `/api/admin/${userName}`, full.cookie, { role: 'full access' });
    expect((await call('POST', `/api/admin/${userName}/reset-authenticator`, full.cookie)).statusCode).toBe(
      200,
    );
    expect((await call('DELETE', `/api/admin/${userName}`, full.cookie)).statusCode).toBe(200);

    const rows = (await t.ctx.database.db.select().from(auditEvents)).filter((r) =>
      r.detail?.includes(`(id ${id})`),
    );
    expect(rows.map((r) => r.action)).toEqual([
      'admin.create',
      'admin.role_change',
      'admin.authenticator_reset',
      'admin.delete',
    ]);
    for (const row of rows) {
      expect(row).toMatchObject({
        admin_user_id: full.admin.admin_user_id,
        admin_user_name: full.admin.user_name,
      });
    }
    expect(rows[0]!.detail).toBe(`admin ${userName} (id ${id}), basic access`);
    expect(rows[1]!.detail).toBe(`admin ${userName} (id ${id}): basic access to full access`);
    expect(rows[3]!.detail).toBe(`admin ${userName} (id ${id}), full access`);
    expect(JSON.stringify(rows)).not.toContain('tangerine');
  });

  it('a refused change records nothing', async () => {
    const before = (await t.ctx.database.db.select().from(auditEvents)).length;
    const taken = await call('POST', '/api/admin', full.cookie, {
      user_name: full.admin.user_name,
      password: 'tangerine lighthouse ferry',
    });
    expect(taken.statusCode).toBe(409);
    const self = await call('DELETE', `/api/admin/${encodeURIComponent(full.admin.user_name)}`, full.cookie);
    expect(self.statusCode).toBe(409);
    expect((await t.ctx.database.db.select().from(auditEvents)).length).toBe(before);
  });

  it('the audit trail and its export filter by each of these kinds', async () => {
    for (const action of ['admin.create', 'admin.authenticator_reset', 'admin.password_change'] as const) {
      const page = await call('GET', `/api/audit?action=${action}`, full.cookie);
      expect(page.statusCode).toBe(200);
      const rows = page.json<{ data: { action: string }[] }>().data;
      expect(rows.length).toBeGreaterThan(0);
      expect(new Set(rows.map((r) => r.action))).toEqual(new Set([action]));
      const csv = await call('GET', `/api/audit/export?action=${action}`, full.cookie);
      const lines = csv.body.trim().split('\r\n').slice(1);
      expect(lines.length).toBe(rows.length);
      expect(lines.every((l) => l.includes(`,${action},`))).toBe(true);
    }
  });
});
