import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@pathway/contract';
import { createTestApp, signedInCookie, type TestApp } from '../../../test/harness.js';

let t: TestApp;
let full: string;
let basic: string;
let fullAdminName: string;

beforeAll(async () => {
  t = await createTestApp();
  const f = await signedInCookie(t.ctx, 'full access');
  full = f.cookie;
  fullAdminName = f.admin.user_name;
  basic = (await signedInCookie(t.ctx, 'basic access')).cookie;
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, cookie: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload && { payload }) });

describe('admin users', () => {
  it('are for full-access users only', async () => {
    expect((await call('GET', '/api/admin', basic)).statusCode).toBe(403);
    expect(
      (await call('POST', '/api/admin', basic, { user_name: 'someone.new', password: 'long enough phrase' }))
        .statusCode,
    ).toBe(403);
    expect(
      (await call('PATCH', `/api/admin/${fullAdminName}`, basic, { role: 'basic access' })).statusCode,
    ).toBe(403);
    expect((await call('DELETE', `/api/admin/${fullAdminName}`, basic)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/admin' })).statusCode).toBe(401);
  });

  it('adds a basic-access admin by default and answers a QR code, never the password', async () => {
    const res = await call('POST', '/api/admin', full, {
      user_name: 'new.colleague',
      password: 'long enough phrase',
      first_name: 'New',
      last_name: 'Colleague',
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ user_name: 'new.colleague', role: 'basic access', first_name: 'New' });
    expect(body.qr_code).toMatch(/^data:image\/png;base64,/);
    expect(body.otpauth_url).toMatch(/^otpauth:\/\/totp\/Pathway:new\.colleague\?/);
    expect(JSON.stringify(body)).not.toMatch(/password|long enough/);
    const list = (await call('GET', '/api/admin', full)).json();
    const listed = list.find((a: { user_name: string }) => a.user_name === 'new.colleague');
    expect(Object.keys(listed).sort()).toEqual([
      'admin_user_id',
      'created_at',
      'first_name',
      'last_name',
      'organisation_id',
      'role',
      'site_ids',
      'system_administrator',
      'user_name',
    ]);
  });

  it('validates with the spec messages and changes nothing on refusal', async () => {
    const before = (await call('GET', '/api/admin', full)).json().length;
    const cases: [object, string][] = [
      [{ password: 'long enough phrase' }, messages.admin.usernameEmpty],
      [{ user_name: '', password: 'long enough phrase' }, messages.admin.usernameEmpty],
      [{ user_name: 'short', password: 'long enough phrase' }, messages.admin.usernameShort],
      [{ user_name: 'valid.name' }, messages.admin.passwordEmpty],
      [{ user_name: 'valid.name', password: 'short' }, messages.admin.passwordShort],
      [
        { user_name: 'valid.name', password: 'long enough phrase', role: 'superuser' },
        'Invalid option: expected one of "basic access"|"full access"',
      ],
    ];
    for (const [payload, message] of cases) {
      const res = await call('POST', '/api/admin', full, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
    }
    expect((await call('GET', '/api/admin', full)).json().length).toBe(before);
  });

  it('refuses a user name that is taken, whatever its case', async () => {
    await call('POST', '/api/admin', full, { user_name: 'Taken.Name', password: 'long enough phrase' });
    const again = await call('POST', '/api/admin', full, {
      user_name: 'taken.name',
      password: 'long enough phrase',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(messages.admin.usernameTaken);
  });

  it('edits role and names but never the user name', async () => {
    await call('POST', '/api/admin', full, { user_name: 'to.be.edited', password: 'long enough phrase' });
    const res = await call('PATCH', '/api/admin/to.be.edited', full, {
      user_name: 'renamed.user',
      first_name: 'Edited',
      last_name: 'Person',
      role: 'full access',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      user_name: 'to.be.edited',
      first_name: 'Edited',
      role: 'full access',
    });
    expect((await call('PATCH', '/api/admin/nobody.here', full, { first_name: 'X' })).statusCode).toBe(404);
  });

  it('a demotion takes effect on the next request of the demoted admin', async () => {
    const other = await signedInCookie(t.ctx, 'full access');
    expect((await call('GET', '/api/admin', other.cookie)).statusCode).toBe(200);
    await call('PATCH', `/api/admin/${other.admin.user_name}`, full, { role: 'basic access' });
    expect((await call('GET', '/api/admin', other.cookie)).statusCode).toBe(403);
  });

  it("deletes immediately, ending the deleted admin's sessions", async () => {
    const victim = await signedInCookie(t.ctx, 'basic access');
    expect((await call('GET', '/api/session', victim.cookie)).statusCode).toBe(200);
    const res = await call('DELETE', `/api/admin/${victim.admin.user_name}`, full);
    expect(res.statusCode).toBe(200);
    expect((await call('GET', '/api/session', victim.cookie)).statusCode).toBe(401);
    expect((await call('DELETE', `/api/admin/${victim.admin.user_name}`, full)).statusCode).toBe(404);
  });

  it('never leaves the system without a full-access admin', async () => {
    const solo = await createTestApp();
    try {
      const only = await signedInCookie(solo.ctx, 'full access');
      const demote = await solo.app.inject({
        method: 'PATCH',
        url: `/api/admin/${only.admin.user_name}`,
        headers: { cookie: only.cookie },
        payload: { role: 'basic access' },
      });
      expect(demote.statusCode).toBe(409);
      expect(demote.json().message).toBe(messages.admin.lastFullAccess);
      const second = await signedInCookie(solo.ctx, 'full access');
      const selfDelete = await solo.app.inject({
        method: 'DELETE',
        url: `/api/admin/${only.admin.user_name}`,
        headers: { cookie: only.cookie },
      });
      expect(selfDelete.statusCode).toBe(409);
      expect(selfDelete.json().message).toBe(messages.admin.cannotDeleteSelf);
      // The other full admin may remove the first; then the last one standing is protected.
      expect(
        (
          await solo.app.inject({
            method: 'DELETE',
            url: `/api/admin/${only.admin.user_name}`,
            headers: { cookie: second.cookie },
          })
        ).statusCode,
      ).toBe(200);
      const lastDemote = await solo.app.inject({
        method: 'PATCH',
        url: `/api/admin/${second.admin.user_name}`,
        headers: { cookie: second.cookie },
        payload: { role: 'basic access' },
      });
      expect(lastDemote.statusCode).toBe(409);
    } finally {
      await solo.close();
    }
  });
});
