import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@pathway/contract';
import { totpCode } from '../../src/modules/auth/totp.js';
import { createAdmin, createTestApp, type TestApp } from '../harness.js';
import { insertDevice, participantBody } from '../factories.js';
import { AUTHORIZATION_MATRIX, type World } from './authorization-matrix.js';
import { seedWorld, type SeededWorld } from './world.js';
import { logWritten } from '../wait.js';

/**
 * Headers and cookies on every kind of answer: the console's page, API answers, files, errors.
 * (apps/server/src/app.test.ts checks the basics on one answer; auth.test.ts the cookie flags over
 * plain HTTP.)
 */
let t: TestApp;
let world: World;
let credentials: SeededWorld['credentials'];
let webRoot: string;

beforeAll(async () => {
  // A small console build of our own, so the page is served by the real static plugin.
  webRoot = mkdtempSync(path.join(os.tmpdir(), 'pathway-web-'));
  mkdirSync(path.join(webRoot, 'assets'));
  writeFileSync(
    path.join(webRoot, 'index.html'),
    '<!doctype html><html><head><script type="module" src="/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>',
  );
  writeFileSync(path.join(webRoot, 'assets', 'index-abc123.js'), 'console.log("console")');
  t = await createTestApp({ webRoot });
  ({ world, credentials } = await seedWorld(t));
});
afterAll(async () => {
  await t.close();
  rmSync(webRoot, { recursive: true, force: true });
});

function directives(header: unknown): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of String((header as string | undefined) ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) map.set(name, sources);
  }
  return map;
}

/** The policy the console runs under: scripts from this origin only, no plugins, no framing. */
function expectStrictCsp(header: unknown, label: string) {
  const csp = directives(header);
  expect(csp.get('default-src'), label).toEqual(["'self'"]);
  expect(csp.get('script-src'), label).toEqual(["'self'"]);
  expect(csp.get('object-src'), label).toEqual(["'none'"]);
  expect(csp.get('frame-ancestors'), label).toEqual(["'none'"]);
  expect(csp.get('base-uri'), label).toEqual(["'self'"]);
  expect(csp.get('form-action'), label).toEqual(["'self'"]);
  for (const [name, sources] of csp) {
    expect(sources, `${label}: ${name} allows any origin`).not.toContain('*');
    if (name !== 'style-src') expect(sources, `${label}: ${name}`).not.toContain("'unsafe-inline'");
    expect(sources, `${label}: ${name}`).not.toContain("'unsafe-eval'");
  }
}

function expectCommonHeaders(res: { headers: Record<string, unknown> }, label: string) {
  expect(res.headers['x-content-type-options'], label).toBe('nosniff');
  expect(String(res.headers['strict-transport-security']), label).toContain('max-age=31536000');
  expect(res.headers['x-powered-by'], label).toBeUndefined();
  expect(String(res.headers['referrer-policy']), label).toBe('no-referrer');
}

describe('security headers', () => {
  it("serves the console's page, its client routes and its files under the strict policy", async () => {
    for (const url of ['/', '/participants', '/participants/12/progress']) {
      const res = await t.app.inject(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toContain('text/html');
      expectStrictCsp(res.headers['content-security-policy'], url);
      expectCommonHeaders(res, url);
    }
    const asset = await t.app.inject('/assets/index-abc123.js');
    expect(asset.statusCode).toBe(200);
    expectStrictCsp(asset.headers['content-security-policy'], 'asset');
    expect(asset.headers['cache-control']).toContain('immutable');
  });

  it('answers every API read with the strict policy and no-store, identifiable or not', async () => {
    let checked = 0;
    for (const row of AUTHORIZATION_MATRIX) {
      // Media are programme videos and pictures (capability URLs, cached for good); the docs viewer's
      // files and the console's page are not answers about anyone.
      if (
        row.method !== 'GET' ||
        row.url.startsWith('/media/') ||
        row.url.startsWith('/api/docs') ||
        row.url === '/*'
      )
        continue;
      const caller = row.who.full === 'ok' ? 'full' : 'device';
      const call = await row.call(world, caller);
      const res = await t.app.inject({ url: call.url, headers: { ...call.headers, ...credentials[caller] } });
      const label = `GET ${row.url} -> ${res.statusCode}`;
      expect(res.statusCode, label).toBeLessThan(500);
      expect(res.headers['cache-control'], label).toBe('no-store');
      expectStrictCsp(res.headers['content-security-policy'], label);
      expectCommonHeaders(res, label);
      checked += 1;
    }
    console.log(`[headers] ${checked} API reads checked for no-store and the policy`);
    expect(checked).toBeGreaterThan(30);
  });

  it('keeps the identifiable answers out of caches: participants, referral, audit and its export', async () => {
    for (const url of [
      `/api/participant`,
      `/api/participant/${world.participantId}`,
      `/api/participant/${world.participantId}/referral`,
      '/api/audit',
      '/api/audit/export',
      '/api/authorizeddevices',
    ]) {
      const res = await t.app.inject({ url, headers: credentials.full });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
  });
});

describe('the session cookie', () => {
  async function signIn(app: TestApp, headers: Record<string, string> = {}) {
    const admin = await createAdmin(app.ctx, 'basic access');
    return app.app.inject({
      method: 'POST',
      url: '/login',
      headers,
      payload: {
        user_name: admin.user_name,
        password: admin.password,
        mfa_token: totpCode(admin.user_name, admin.totpSecret, new Date()),
      },
    });
  }

  it('is HttpOnly, SameSite=Strict, for the whole site, and cleared the same way at logout', async () => {
    const res = await signIn(t);
    expect(res.statusCode).toBe(200);
    const raw = String(res.headers['set-cookie']);
    expect(raw).toMatch(/^jwt=[^;]+; /);
    expect(raw).toContain('HttpOnly');
    expect(raw).toContain('SameSite=Strict');
    expect(raw).toContain('Path=/');
    // Plain HTTP (a developer's machine): a Secure cookie would never come back.
    expect(raw).not.toContain('Secure');
    const cookie = raw.split(';')[0]!;
    const out = await t.app.inject({ method: 'POST', url: '/logout', headers: { cookie } });
    const cleared = String(out.headers['set-cookie']);
    expect(cleared).toMatch(/^jwt=;/);
    expect(cleared).toContain('HttpOnly');
    expect(cleared).toContain('SameSite=Strict');
    expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970/);
  });

  it('is Secure behind a TLS proxy (TRUST_PROXY), and only when the proxy says https', async () => {
    const proxied = await createTestApp({ env: { TRUST_PROXY: 'true' } });
    try {
      const https = await signIn(proxied, { 'x-forwarded-proto': 'https' });
      expect(https.statusCode).toBe(200);
      expect(String(https.headers['set-cookie'])).toContain('Secure');
      const http = await signIn(proxied, { 'x-forwarded-proto': 'http' });
      expect(String(http.headers['set-cookie'])).not.toContain('Secure');
      // Without TRUST_PROXY a client cannot claim https for itself.
      const spoofed = await signIn(t, { 'x-forwarded-proto': 'https' });
      expect(String(spoofed.headers['set-cookie'])).not.toContain('Secure');
    } finally {
      await proxied.close();
    }
  });
});

describe('error answers', () => {
  const INTERNALS =
    /\bat .+:\d+:\d+|node_modules|\.ts\b|stack|select |insert |relation |syntax error|drizzle|postgres|pglite/i;

  function expectPlainError(
    res: { statusCode: number; body: string; headers: Record<string, unknown> },
    status: number,
    label: string,
  ) {
    expect(res.statusCode, `${label}: ${res.body}`).toBe(status);
    const body = JSON.parse(res.body) as Record<string, unknown>;
    expect(typeof body.message, label).toBe('string');
    expect(
      Object.keys(body).filter((k) => k !== 'message' && k !== 'errors'),
      label,
    ).toEqual([]);
    expect(res.body, label).not.toMatch(INTERNALS);
    expect(res.headers['cache-control'], label).toBe('no-store');
    expectStrictCsp(res.headers['content-security-policy'], label);
  }

  it('says only what went wrong for 400, 401, 403, 404, 413 and 415', async () => {
    const basic = credentials.basic;
    const full = credentials.full;
    expectPlainError(await t.app.inject({ url: '/api/no-such-thing', headers: full }), 404, '404');
    expectPlainError(
      await t.app.inject({ method: 'POST', url: '/api/videoset', headers: full, payload: { set_name: 'x' } }),
      400,
      '400 validation',
    );
    expectPlainError(
      await t.app.inject({
        method: 'POST',
        url: '/api/videoset',
        headers: { ...full, 'content-type': 'application/json' },
        payload: '{"set_name":',
      }),
      400,
      '400 malformed JSON',
    );
    expectPlainError(await t.app.inject({ url: '/api/participant' }), 401, '401');
    expectPlainError(await t.app.inject({ url: '/api/audit', headers: basic }), 403, '403');
    expectPlainError(
      await t.app.inject({
        method: 'POST',
        url: '/api/videoset',
        headers: { ...full, 'content-type': 'application/json' },
        payload: JSON.stringify({ set_name: 'a'.repeat(1024 * 1024 + 1) }),
      }),
      413,
      '413',
    );
    expectPlainError(
      await t.app.inject({
        method: 'POST',
        url: '/api/videoset',
        headers: { ...full, 'content-type': 'application/xml' },
        payload: '<set_name>x</set_name>',
      }),
      415,
      '415',
    );
  });

  it('answers a failure inside the server with one sentence, and logs it without the values it was given', async () => {
    // A real internal failure where it hurts most: the insert of a participant (its parameters are
    // the person's details) is refused by a constraint the server knows nothing about.
    await t.ctx.database.db.execute(
      sql`alter table participants add constraint refuse_every_row check (false) not valid`,
    );
    try {
      const device = await insertDevice(t.ctx);
      const body = participantBody(device.uuid);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/participant',
        headers: credentials.full,
        payload: body,
      });
      expectPlainError(res, 500, '500');
      expect(res.json()).toEqual({ message: messages.generic.internal });
      // The log file is written asynchronously: wait for the line itself.
      const logs = await logWritten(t.config.logDir, 'unhandled error');
      const line = logs.split('\n').find((l) => l.includes('unhandled error'));
      expect(line, 'the failure is logged').toBeDefined();
      expect(line).toContain('insert into');
      for (const value of [body.first_name, body.last_name, body.email, body.address, body.date_of_birth])
        expect(line).not.toContain(String(value));
    } finally {
      await t.ctx.database.db.execute(sql`alter table participants drop constraint refuse_every_row`);
    }
  });
});
