import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { messages, type SsoConfigBody } from '@pathway/contract';
import { rowsOf } from '../../db/rows.js';
import { ManualClock, createAdmin, createTestApp, signedInCookie, type TestApp } from '../../../test/harness.js';
import { startTestProvider, testId, type TestAccount, type TestProvider, type TestProviderOptions } from '../../../test/oidc-provider.js';
import { TestBrowser, type Visit } from '../../../test/test-browser.js';
import { waitUntil } from '../../../test/wait.js';

/**
 * Single sign-on against a real OpenID provider on loopback (oidc-provider, configured per test),
 * over real HTTP: Pathway listens on a port, the provider calls it back (its keys for
 * private_key_jwt, back-channel logout), and a cookie-keeping client plays the browser.
 */

const clock = new ManualClock();
let t: TestApp;
let base: string;
let fullCookie: string;
let provider: TestProvider | undefined;

beforeAll(async () => {
  t = await createTestApp({ clock });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  fullCookie = (await signedInCookie(t.ctx, 'full access')).cookie;
});
afterAll(() => t.close());
// The provider's tokens carry the machine's time: the application's clock starts each test there.
beforeEach(() => clock.set(new Date()));
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

const DOMAIN = 'trust.nhs.example';
const ROLE_MAP = { 'pathway-lead': 'full access', 'pathway-clinician': 'basic access' } as const;

function account(roles: unknown, extra: Record<string, unknown> = {}): TestAccount {
  const id = testId();
  return {
    sub: `sub-${id}`,
    claims: {
      email: `clinician.${id}@${DOMAIN}`,
      email_verified: true,
      given_name: 'Grace',
      family_name: `Hopper${id}`,
      ...(roles === undefined ? {} : { roles }),
      ...extra,
    },
  };
}

function client(overrides: Record<string, unknown> = {}) {
  return {
    client_id: 'pathway',
    client_secret: 'a client secret of the test provider',
    token_endpoint_auth_method: 'client_secret_basic',
    redirect_uris: [`${base}/api/sso/callback`],
    post_logout_redirect_uris: [`${base}/login`],
    backchannel_logout_uri: `${base}/api/sso/backchannel-logout`,
    backchannel_logout_session_required: true,
    ...overrides,
  } as TestProviderOptions['clients'][number];
}

async function configure(overrides: Partial<SsoConfigBody> = {}, cookie = fullCookie) {
  return t.app.inject({
    method: 'PUT',
    url: '/api/organisations/1/sso',
    headers: { cookie },
    payload: {
      issuer: provider!.issuer,
      client_id: 'pathway',
      client_secret: 'a client secret of the test provider',
      client_auth: 'client_secret_basic',
      email_domains: [DOMAIN],
      role_claim: 'roles',
      role_map: ROLE_MAP,
      jit: true,
      required: false,
      break_glass: [],
      ...overrides,
    } satisfies SsoConfigBody,
  });
}

async function withProvider(options: Partial<TestProviderOptions> & { accounts: TestAccount[] }, settings: Partial<SsoConfigBody> = {}) {
  provider = await startTestProvider({ clients: [client()], ...options });
  const saved = await configure(settings);
  expect(saved.statusCode, saved.body).toBe(200);
  return provider;
}

const atPathway = (url: URL) => url.origin === base && (url.pathname === '/dashboard' || url.pathname === '/login' || url.pathname === '/sso/step-up-done');

/** Starts at Pathway with the email, signs in at the provider's page as `who`, and follows back to Pathway. */
async function signIn(
  browser: TestBrowser,
  who: TestAccount,
  { acr, email = String(who.claims.email), stopBeforeCallback = false }: { acr?: string; email?: string; stopBeforeCallback?: boolean } = {},
): Promise<Visit> {
  const page = await browser.visit(`${base}/api/sso/start?email=${encodeURIComponent(email)}`, { stopAt: atPathway });
  if (atPathway(page.url)) return page; // refused before the provider
  expect(page.url.pathname, page.body).toMatch(/^\/interaction\//);
  return browser.visit(new URL(`${page.url.pathname}/login`, page.url), {
    form: { account: who.sub, ...(acr ? { acr } : {}) },
    stopAt: (url) => atPathway(url) || (stopBeforeCallback && url.pathname === '/api/sso/callback'),
  });
}

const refusedWith = (visit: Visit) => (visit.url.pathname === '/login' ? visit.url.searchParams.get('sso') : null);

async function sessionOf(browser: TestBrowser) {
  const jwt = browser.cookie(base, 'jwt');
  if (!jwt) return null;
  const res = await t.app.inject({ url: '/api/session', headers: { cookie: `jwt=${jwt}` } });
  return res.statusCode === 200 ? res.json<{ user_name: string; role: string; single_sign_on?: boolean }>() : null;
}

async function auditOf(action: string) {
  return rowsOf<{ admin_user_name: string; detail: string | null; admin_user_id: number | null }>(
    await t.ctx.db.execute(
      sql`select admin_user_name, detail, admin_user_id from audit_events where action = ${action} order by audit_event_id`,
    ),
  );
}

describe('single sign-on through a real OpenID provider', () => {
  it('creates an unknown person on their first sign-in (just in time) with the role from their claims, and finds them by subject after', async () => {
    const lead = account(['pathway-lead', 'something-else']);
    await withProvider({ accounts: [lead] });
    const browser = new TestBrowser();

    const lookup = await t.app.inject({ url: `/api/sso/lookup?email=${encodeURIComponent(String(lead.claims.email))}` });
    expect(lookup.json()).toEqual({ single_sign_on: true });
    expect((await t.app.inject({ url: '/api/sso/lookup?email=someone@elsewhere.example' })).json()).toEqual({
      single_sign_on: false,
    });

    const back = await signIn(browser, lead);
    expect(back.url.pathname, back.url.href).toBe('/dashboard');
    const session = await sessionOf(browser);
    expect(session).toMatchObject({ user_name: String(lead.claims.email), role: 'full access', single_sign_on: true });
    expect((await auditOf('sso.jit_create')).map((e) => e.admin_user_name)).toContain(String(lead.claims.email));
    expect((await auditOf('signin.success')).at(-1)?.detail).toBe(`single sign-on (${provider!.issuer})`);
    // The flow cookie is spent; a second sign-in finds the same admin by subject, creating nobody.
    expect(browser.cookie(`${base}/api/sso/`, 'sso_flow')).toBeUndefined();
    const again = await signIn(new TestBrowser(), lead);
    expect(again.url.pathname).toBe('/dashboard');
    const rows = rowsOf<{ n: number }>(
      await t.ctx.db.execute(sql`select count(*)::int as n from admin_users where sso_subject = ${lead.sub}`),
    );
    expect(rows[0]!.n).toBe(1);
  });
});
