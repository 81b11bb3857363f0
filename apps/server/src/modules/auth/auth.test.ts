import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@pathway/contract';
import { ManualClock, createAdmin, createTestApp, type TestApp } from '../../../test/harness.js';
import { FREE_FAILURES, LOCK_AFTER_FAILURES, LOCK_MS } from './login-service.js';
import { totpCode } from './totp.js';

const clock = new ManualClock(new Date('2026-03-02T09:00:00Z'));
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());

function login(body: Record<string, unknown>, contentType: 'json' | 'form' = 'json') {
  return t.app.inject({
    method: 'POST',
    url: '/login',
    ...(contentType === 'json'
      ? { payload: body }
      : {
          payload: new URLSearchParams(body as Record<string, string>).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
  });
}

function cookieOf(response: { cookies: { name: string; value: string }[] }) {
  const c = response.cookies.find((x) => x.name === 'jwt');
  return c ? `jwt=${c.value}` : '';
}

describe('sign-in', () => {
  it('signs in with password and TOTP, sets a strict HttpOnly cookie, and reports the role', async () => {
    clock.advance(60_000);
    const admin = await createAdmin(t.ctx, 'basic access');
    const res = await login({
      user_name: `  ${admin.user_name} `,
      password: admin.password,
      mfa_token: ` ${totpCode(admin.user_name, admin.totpSecret, clock.now())} `,
    });
    expect(res.statusCode).toBe(200);
    const cookie = res.cookies.find((c) => c.name === 'jwt')!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Strict');
    expect(cookie.path).toBe('/');
    const session = await t.app.inject({
      method: 'GET',
      url: '/api/session',
      headers: { cookie: cookieOf(res) },
    });
    expect(session.statusCode).toBe(200);
    expect(session.json()).toMatchObject({ user_name: admin.user_name, role: 'basic access' });
  });

  it('accepts a form-encoded body too', async () => {
    clock.advance(60_000);
    const admin = await createAdmin(t.ctx);
    const res = await login(
      {
        user_name: admin.user_name,
        password: admin.password,
        mfa_token: totpCode(admin.user_name, admin.totpSecret, clock.now()),
      },
      'form',
    );
    expect(res.statusCode).toBe(200);
  });

  it('answers every kind of failure with the same 401 and message', async () => {
    clock.advance(60_000);
    const admin = await createAdmin(t.ctx);
    const code = totpCode(admin.user_name, admin.totpSecret, clock.now());
    const attempts = [
      { user_name: admin.user_name, password: 'wrong-password', mfa_token: code },
      {
        user_name: admin.user_name,
        password: admin.password,
        mfa_token: '000000' === code ? '111111' : '000000',
      },
      { user_name: 'nobody@example.org', password: admin.password, mfa_token: code },
      { user_name: admin.user_name, password: admin.password },
      {},
    ];
    for (const body of attempts) {
      const res = await login(body);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: messages.login.failed });
    }
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/login',
      payload: '{"user_name":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.statusCode).toBe(401);
  });

  it('accepts one step of clock drift but refuses a code used twice', async () => {
    clock.advance(60_000);
    const admin = await createAdmin(t.ctx);
    const previousStepCode = totpCode(
      admin.user_name,
      admin.totpSecret,
      new Date(clock.now().getTime() - 30_000),
    );
    const first = await login({
      user_name: admin.user_name,
      password: admin.password,
      mfa_token: previousStepCode,
    });
    expect(first.statusCode).toBe(200);
    const replay = await login({
      user_name: admin.user_name,
      password: admin.password,
      mfa_token: previousStepCode,
    });
    expect(replay.statusCode).toBe(401);
    const tooOld = totpCode(admin.user_name, admin.totpSecret, new Date(clock.now().getTime() - 120_000));
    expect(
      (await login({ user_name: admin.user_name, password: admin.password, mfa_token: tooOld })).statusCode,
    ).toBe(401);
  });

  it('slows down repeated failures and then locks the user name, counted in the database', async () => {
    clock.advance(60_000);
    const admin = await createAdmin(t.ctx);
    const wrong = { user_name: admin.user_name, password: 'not-the-password', mfa_token: '123456' };
    for (let i = 0; i < FREE_FAILURES; i++) expect((await login(wrong)).statusCode).toBe(401);
    // Within the back-off window even the right credentials are refused.
    const right = () => ({
      user_name: admin.user_name,
      password: admin.password,
      mfa_token: totpCode(admin.user_name, admin.totpSecret, clock.now()),
    });
    expect((await login(right())).statusCode).toBe(401);
    for (let i = FREE_FAILURES; i < LOCK_AFTER_FAILURES; i++) {
      clock.advance(10 * 60_000); // wait out each back-off so every attempt really counts
      expect((await login(wrong)).statusCode).toBe(401);
    }
    clock.advance(60_000);
    expect((await login(right())).statusCode).toBe(401); // locked
    clock.advance(LOCK_MS);
    expect((await login(right())).statusCode).toBe(200); // the lock ran out
  });
});

describe('sessions', () => {
  async function signIn() {
    clock.advance(60_000);
    const admin = await createAdmin(t.ctx);
    const res = await login({
      user_name: admin.user_name,
      password: admin.password,
      mfa_token: totpCode(admin.user_name, admin.totpSecret, clock.now()),
    });
    expect(res.statusCode).toBe(200);
    return cookieOf(res);
  }
  const session = (cookie: string) =>
    t.app.inject({ method: 'GET', url: '/api/session', headers: { cookie } });

  it('ends after 30 minutes idle', async () => {
    const cookie = await signIn();
    clock.advance(29 * 60_000);
    expect((await session(cookie)).statusCode).toBe(200);
    clock.advance(31 * 60_000);
    expect((await session(cookie)).statusCode).toBe(401);
  });

  it('ends after 12 hours however active', async () => {
    const cookie = await signIn();
    for (let i = 0; i < 25; i++) {
      clock.advance(29 * 60_000);
      await session(cookie);
    }
    expect((await session(cookie)).statusCode).toBe(401);
  });

  it('logout ends the session on the server and clears the cookie', async () => {
    const cookie = await signIn();
    const out = await t.app.inject({ method: 'POST', url: '/logout', headers: { cookie } });
    expect(out.statusCode).toBe(200);
    expect(out.cookies.find((c) => c.name === 'jwt')?.value).toBe('');
    expect((await session(cookie)).statusCode).toBe(401);
  });

  it('refuses a tampered or foreign token', async () => {
    const cookie = await signIn();
    const [header, payload, signature] = cookie.slice(4).split('.');
    const forged = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    forged.role = 'full access';
    forged.sid = '00000000-0000-0000-0000-000000000000';
    const tampered = `jwt=${header}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${signature}`;
    expect((await session(tampered)).statusCode).toBe(401);
    expect((await session('jwt=not.a.token')).statusCode).toBe(401);
  });
});
