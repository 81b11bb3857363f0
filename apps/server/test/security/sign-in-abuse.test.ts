import { eq } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginThrottle } from '../../src/db/schema.js';
import { sessionSigningKey } from '../../src/modules/auth/sessions.js';
import { FREE_FAILURES, LOCK_AFTER_FAILURES } from '../../src/modules/auth/login-service.js';
import { totpCode } from '../../src/modules/auth/totp.js';
import { ManualClock, createAdmin, createTestApp, signedInCookie, type TestApp } from '../harness.js';

/**
 * Sign-in abuse beyond what apps/server/src/modules/auth/auth.test.ts covers (throttle then lock,
 * a TOTP code used twice, idle and absolute expiry, logout, a tampered payload): forged and
 * expired tokens signed with the server's own key, an unsigned token, a role claim the database
 * contradicts, and a storm of wrong passwords sent all at once.
 */
const clock = new ManualClock(new Date('2026-03-02T09:00:00Z'));
let t: TestApp;
let key: Uint8Array;

beforeAll(async () => {
  t = await createTestApp({ clock });
  key = sessionSigningKey(t.config.sessionSecret, t.ctx.secrets);
});
afterAll(() => t.close());

const session = (cookie: string) => t.app.inject({ url: '/api/session', headers: { cookie } });
const admins = (cookie: string) => t.app.inject({ url: '/api/admin', headers: { cookie } });

function claimsOf(cookie: string): { sid: string; sub: string; role: string; iat: number; exp: number } {
  return JSON.parse(Buffer.from(cookie.split('.')[1]!, 'base64url').toString());
}

describe('session tokens', () => {
  it('refuses an unsigned token (alg none) and one signed with another key', async () => {
    const { cookie } = await signedInCookie(t.ctx, 'full access');
    const claims = claimsOf(cookie);
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`;
    expect((await session(`jwt=${none}`)).statusCode).toBe(401);
    const foreign = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('x'.repeat(48)));
    expect((await session(`jwt=${foreign}`)).statusCode).toBe(401);
    // The genuine cookie still works: the refusals were about the tokens.
    expect((await session(cookie)).statusCode).toBe(200);
  });

  it("refuses a token past its own expiry even though it is signed with the server's key", async () => {
    const { cookie } = await signedInCookie(t.ctx, 'full access');
    const claims = claimsOf(cookie);
    const now = Math.floor(clock.now().getTime() / 1000);
    const expired = await new SignJWT({ ...claims, iat: now - 120, exp: now - 60 })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(key);
    expect((await session(`jwt=${expired}`)).statusCode).toBe(401);
  });

  it('reads the role from the database, not from the token', async () => {
    const { cookie } = await signedInCookie(t.ctx, 'basic access');
    const promoted = await new SignJWT({ ...claimsOf(cookie), role: 'full access' })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(key);
    expect((await admins(`jwt=${promoted}`)).statusCode).toBe(403);
  });

  it('refuses a signed token naming a session that was logged out, or one that never existed', async () => {
    const { cookie } = await signedInCookie(t.ctx, 'full access');
    const claims = claimsOf(cookie);
    expect((await t.app.inject({ method: 'POST', url: '/logout', headers: { cookie } })).statusCode).toBe(
      200,
    );
    // Re-signed with a fresh expiry: only the session row can refuse it.
    const now = Math.floor(clock.now().getTime() / 1000);
    const revived = await new SignJWT({ ...claims, iat: now, exp: now + 3600 })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(key);
    for (const path of ['/api/session', '/api/admin', '/api/participant', '/api/audit']) {
      expect(
        (await t.app.inject({ url: path, headers: { cookie: `jwt=${revived}` } })).statusCode,
        path,
      ).toBe(401);
    }
    const invented = await new SignJWT({
      ...claims,
      sid: '11111111-2222-3333-4444-555555555555',
      iat: now,
      exp: now + 3600,
    })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(key);
    expect((await session(`jwt=${invented}`)).statusCode).toBe(401);
  });

  it("ends a deleted admin's sessions at once", async () => {
    const { cookie: full } = await signedInCookie(t.ctx, 'full access');
    const victim = await signedInCookie(t.ctx, 'basic access');
    expect((await session(victim.cookie)).statusCode).toBe(200);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/${encodeURIComponent(victim.admin.user_name)}`,
      headers: { cookie: full },
    });
    expect(removed.statusCode).toBe(200);
    expect((await session(victim.cookie)).statusCode).toBe(401);
  });
});

describe('password guessing', () => {
  it('holds against a storm of wrong passwords sent at once: every one counted or refused unchecked, the right one refused after', async () => {
    clock.advance(60_000);
    const admin = await createAdmin(t.ctx);
    const storm = Array.from({ length: LOCK_AFTER_FAILURES * 3 }, () =>
      t.app.inject({
        method: 'POST',
        url: '/login',
        payload: { user_name: admin.user_name, password: 'guess-guess-guess', mfa_token: '000000' },
      }),
    );
    const answers = await Promise.all(storm);
    // 401, or 503 when more attempts wait for argon2 than its queue holds (refused unchecked).
    const failed = answers.filter((a) => a.statusCode === 401);
    expect(answers.filter((a) => a.statusCode !== 401 && a.statusCode !== 503)).toEqual([]);
    expect(new Set(failed.map((a) => a.json().message)).size).toBe(1);
    // However the storm interleaved, the failures are counted in SQL (none lost to a race), so
    // at least the free ones and one more were recorded, and a lock follows from ten.
    const [row] = await t.ctx.database.db
      .select()
      .from(loginThrottle)
      .where(eq(loginThrottle.user_name, admin.user_name.toLowerCase()));
    expect(row!.failures).toBeGreaterThan(FREE_FAILURES);
    expect(row!.locked_until !== null).toBe(row!.failures >= LOCK_AFTER_FAILURES);
    // At the same moment the right password and code are refused too.
    const right = await t.app.inject({
      method: 'POST',
      url: '/login',
      payload: {
        user_name: admin.user_name,
        password: admin.password,
        mfa_token: totpCode(admin.user_name, admin.totpSecret, clock.now()),
      },
    });
    expect(right.statusCode).toBe(401);
  });
});
