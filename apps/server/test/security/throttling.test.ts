import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@pathway/contract';
import { auditEvents, loginThrottle } from '../../src/db/schema.js';
import { LOCK_AFTER_FAILURES } from '../../src/modules/auth/login-service.js';
import { ARGON2_CONCURRENCY, argon2Busy } from '../../src/modules/auth/passwords.js';
import { totpCode } from '../../src/modules/auth/totp.js';
import { ManualClock, createAdmin, createTestApp, signedInCookie, type TestApp } from '../harness.js';

/** The sign-in limits as deployed (the harness raises them for every other file). */
const DEFAULT_LIMITS = { LOGIN_LIMIT_PER_ADDRESS: '10', LOGIN_LIMIT_OVERALL: '300' };
const clock = new ManualClock(new Date('2026-05-04T08:00:00Z'));
let t: TestApp;
let locks: TestApp;

beforeAll(async () => {
  t = await createTestApp({ env: DEFAULT_LIMITS });
  locks = await createTestApp({ clock });
});
afterAll(async () => {
  await t.close();
  await locks.close();
});

function login(app: TestApp, body: Record<string, string>, remoteAddress: string) {
  return app.app.inject({ method: 'POST', url: '/login', payload: body, remoteAddress });
}

describe('sign-in throttling that cannot be turned against staff', () => {
  it('answers a spray of user names from one address with 429 and Retry-After after 10, without checking them', async () => {
    const codes: number[] = [];
    const limited = [];
    for (let i = 0; i < 40; i++) {
      const res = await login(
        t,
        { user_name: `sprayed.${i}@example.org`, password: 'guess-guess-guess', mfa_token: '000000' },
        '203.0.113.40',
      );
      codes.push(res.statusCode);
      if (res.statusCode === 429) limited.push(res);
    }
    expect(codes).toEqual([...Array(10).fill(401), ...Array(30).fill(429)]);
    for (const r of limited) {
      expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
      expect(r.json().message).toBe(messages.login.tooManyAttempts(Number(r.headers['retry-after'])));
    }
    // Only the 10 let through were checked (and audited as failures).
    const audited = await t.ctx.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'signin.failure'), eq(auditEvents.ip, '203.0.113.40')));
    expect(audited.length).toBe(10);
    // A burst sent all at once from another address is refused too, and never checked past the limit.
    const burst = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        login(
          t,
          { user_name: `burst.${i}@example.org`, password: 'guess-guess-guess', mfa_token: '000000' },
          '203.0.113.41',
        ),
      ),
    );
    expect(burst.filter((r) => r.statusCode !== 401 && r.statusCode !== 429)).toEqual([]);
    expect(burst.filter((r) => r.statusCode === 429).length).toBeGreaterThanOrEqual(30);
    // A third address is not affected.
    const other = await login(
      t,
      { user_name: 'someone.else@example.org', password: 'guess-guess-guess', mfa_token: '000000' },
      '203.0.113.42',
    );
    expect(other.statusCode).toBe(401);
  });

  it("a victim's correct sign-in still works after an outsider's ten wrong ones; full access sees and lifts the lock", async () => {
    // The lock, not the per-address rate limit, is what this shows: the harness's high limits.
    const t = locks;
    const victim = await createAdmin(t.ctx, 'basic access');
    const outsider = '198.51.100.66';
    for (let i = 0; i < LOCK_AFTER_FAILURES; i++) {
      clock.advance(10 * 60_000); // paced past every back-off, as the probe did
      const res = await login(
        t,
        { user_name: victim.user_name, password: 'not-the-password', mfa_token: '123456' },
        outsider,
      );
      expect(res.statusCode).toBe(401);
    }
    clock.advance(60_000);
    const right = () => ({
      user_name: victim.user_name,
      password: victim.password,
      mfa_token: totpCode(victim.user_name, victim.totpSecret, clock.now()),
    });
    // The outsider's address is locked, even with the right credentials...
    expect((await login(t, right(), outsider)).statusCode).toBe(401);
    // ...but the victim, from their own address, signs in.
    clock.advance(60_000);
    expect((await login(t, right(), '192.0.2.10')).statusCode).toBe(200);

    const { cookie: full } = await signedInCookie(t.ctx, 'full access');
    const { cookie: basic } = await signedInCookie(t.ctx, 'basic access');
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/lockouts', headers: { cookie: basic } })).statusCode,
    ).toBe(403);
    const list = await t.app.inject({ method: 'GET', url: '/api/lockouts', headers: { cookie: full } });
    expect(list.statusCode).toBe(200);
    const entry = list
      .json()
      .find((l: { user_name: string }) => l.user_name === victim.user_name.toLowerCase());
    expect(entry).toMatchObject({ source: outsider, failures: LOCK_AFTER_FAILURES });
    expect(entry.locked_until).not.toBeNull();

    const lift = await t.app.inject({
      method: 'DELETE',
      url: `/api/lockouts/${encodeURIComponent(victim.user_name)}`,
      headers: { cookie: full },
    });
    expect(lift.statusCode).toBe(200);
    expect(lift.json().message).toBe(messages.admin.unlocked);
    const rows = await t.ctx.database.db
      .select()
      .from(loginThrottle)
      .where(eq(loginThrottle.user_name, victim.user_name.toLowerCase()));
    expect(rows).toEqual([]);
    clock.advance(60_000);
    expect((await login(t, right(), outsider)).statusCode).toBe(200);
    const again = await t.app.inject({
      method: 'DELETE',
      url: `/api/lockouts/${encodeURIComponent(victim.user_name)}`,
      headers: { cookie: full },
    });
    expect(again.statusCode).toBe(404);

    // Audited: each failure (user name as typed, never the password), the lock and its lifting.
    const events = await t.ctx.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.admin_user_name, victim.user_name));
    const kinds = events.map((e) => e.action);
    // The attempt refused while locked was not checked, so it is no failure of its own.
    expect(kinds.filter((k) => k === 'signin.failure').length).toBe(LOCK_AFTER_FAILURES);
    expect(kinds).toContain('signin.lockout');
    expect(kinds.filter((k) => k === 'signin.success').length).toBe(2);
    expect(JSON.stringify(events)).not.toContain('not-the-password');
    const unlock = await t.ctx.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'signin.unlock'));
    expect(unlock.length).toBe(1);
  });

  it('holds an overall ceiling across addresses', async () => {
    const small = await createTestApp({ env: { LOGIN_LIMIT_PER_ADDRESS: '10', LOGIN_LIMIT_OVERALL: '5' } });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 8; i++) {
        const res = await login(
          small,
          { user_name: `overall.${i}@example.org`, password: 'guess-guess-guess', mfa_token: '000000' },
          `192.0.2.${100 + i}`,
        );
        codes.push(res.statusCode);
      }
      expect(codes).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    } finally {
      await small.close();
    }
  });

  it('bounds concurrent argon2 work under a flood from many addresses; signed-in staff are still served', async () => {
    const flood = await createTestApp({
      env: { LOGIN_LIMIT_PER_ADDRESS: '1000', LOGIN_LIMIT_OVERALL: '100000' },
    });
    try {
      const { cookie } = await signedInCookie(flood.ctx, 'basic access');
      let peak = 0;
      const sample = setInterval(() => (peak = Math.max(peak, argon2Busy().running)), 1);
      const attempts = Array.from({ length: 100 }, (_, i) =>
        login(
          flood,
          { user_name: `flood.${i}@example.org`, password: 'guess-guess-guess', mfa_token: '000000' },
          `10.9.${i >> 8}.${i & 255}`,
        ),
      );
      const staff = await flood.app.inject({ method: 'GET', url: '/api/session', headers: { cookie } });
      const answers = await Promise.all(attempts);
      clearInterval(sample);
      expect(staff.statusCode).toBe(200);
      const codes = answers.map((a) => a.statusCode);
      expect(codes.filter((c) => c !== 401 && c !== 503)).toEqual([]);
      const busy = answers.filter((a) => a.statusCode === 503);
      expect(busy.length).toBeGreaterThan(0);
      expect(busy[0]!.headers['retry-after']).toBe('2');
      expect(busy[0]!.json().message).toBe(messages.login.busy);
      expect(peak).toBeLessThanOrEqual(ARGON2_CONCURRENCY);
      console.log(
        `[throttling] 100 concurrent sign-ins: ${codes.filter((c) => c === 401).length} checked, ${busy.length} refused busy (503); argon2 peak ${peak}`,
      );
    } finally {
      await flood.close();
    }
  });
});
