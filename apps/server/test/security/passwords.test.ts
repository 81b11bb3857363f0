import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@pathway/contract';
import { createTestApp, signedInCookie, type TestApp } from '../harness.js';

let t: TestApp;
let full: string;

beforeAll(async () => {
  t = await createTestApp();
  full = (await signedInCookie(t.ctx, 'full access')).cookie;
});
afterAll(() => t.close());

const add = (user_name: string, password: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/admin',
    headers: { cookie: full },
    payload: { user_name, password, first_name: 'New', last_name: 'Admin' },
  });

describe('staff passwords (NCSC guidance, ASVS 2.1)', () => {
  it('refuses the passwords the probe got through, each with its reason, and stores nothing', async () => {
    const cases: [string, string][] = [
      ['12345678', messages.admin.passwordShort],
      ['password', messages.admin.passwordShort],
      ['Password1', messages.admin.passwordShort],
      ['Password1234', messages.admin.passwordCommon],
      ['password1234', messages.admin.passwordCommon],
      ['passwordpassword', messages.admin.passwordCommon],
      ['qwertyuiop123', messages.admin.passwordCommon],
      ['iloveyou1234', messages.admin.passwordCommon],
      ['123456789012', messages.admin.passwordCommon],
      ['P@ssw0rd2024!', messages.admin.passwordCommon],
    ];
    for (const [password, message] of cases) {
      const res = await add('probe.victim', password);
      expect(res.statusCode, password).toBe(400);
      expect(res.json().message, password).toBe(message);
    }
    const list = (await t.app.inject({ method: 'GET', url: '/api/admin', headers: { cookie: full } })).json();
    expect(list.some((a: { user_name: string }) => a.user_name === 'probe.victim')).toBe(false);
  });

  it('refuses a password equal to or built from the user name', async () => {
    for (const password of [
      'jane.smith.nhs',
      'JANE.SMITH.NHS',
      'jane.smith.nhs-2026',
      'my jane.smith.nhs!',
    ]) {
      const res = await add('jane.smith.nhs', password);
      expect(res.statusCode, password).toBe(400);
      expect(res.json().message).toBe(messages.admin.passwordIsUserName);
    }
    const email = await add('robert.jones@nhs.example', 'robert.jones is my name');
    expect(email.statusCode).toBe(400);
    expect(email.json().message).toBe(messages.admin.passwordIsUserName);
  });

  it('accepts a long passphrase of ordinary words', async () => {
    const res = await add('pass.phrase.user', 'plum kettle orbit lantern');
    expect(res.statusCode).toBe(201);
  });
});
