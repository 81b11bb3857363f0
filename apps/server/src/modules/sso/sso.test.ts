import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { messages, type SsoConfigBody } from '@pathway/contract';
import { rowsOf } from '../../db/rows.js';
import {
  ManualClock,
  createAdmin,
  createTestApp,
  signedInCookie,
  testLogRoot,
  type TestApp,
} from '../../../test/harness.js';
import { recordSecret } from '../../../test/security/log-leaks.js';
import {
  startTestProvider,
  testId,
  type TestAccount,
  type TestProvider,
  type TestProviderOptions,
} from '../../../test/oidc-provider.js';
import { TestBrowser, type Visit } from '../../../test/test-browser.js';
import { waitUntil } from '../../../test/wait.js';
import { totpCode } from '../auth/totp.js';
import { createSign, type KeyObject } from 'node:crypto';

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
  // The client secret must never reach a log line: the scan after the run looks for it.
  recordSecret(testLogRoot(), CLIENT_SECRET);
});
afterAll(() => t.close());
// The provider's tokens carry the machine's time: the application's clock starts each test there.
beforeEach(() => clock.set(new Date()));
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

const DOMAIN = 'trust.nhs.example';
const CLIENT_SECRET = 'a client secret of the test provider';
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
    client_secret: CLIENT_SECRET,
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
      client_secret: CLIENT_SECRET,
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

async function withProvider(
  options: Partial<TestProviderOptions> & { accounts: TestAccount[] },
  settings: Partial<SsoConfigBody> = {},
) {
  provider = await startTestProvider({ clients: [client()], ...options });
  const saved = await configure(settings);
  expect(saved.statusCode, saved.body).toBe(200);
  return provider;
}

const atPathway = (url: URL) =>
  url.origin === base &&
  (url.pathname === '/dashboard' || url.pathname === '/login' || url.pathname === '/sso/step-up-done');

/** Starts at Pathway with the email, signs in at the provider's page as `who`, and follows back to Pathway. */
async function signIn(
  browser: TestBrowser,
  who: TestAccount,
  {
    acr,
    email = String(who.claims.email),
    stopBeforeCallback = false,
  }: { acr?: string; email?: string; stopBeforeCallback?: boolean } = {},
): Promise<Visit> {
  const stopAt = (url: URL) => atPathway(url) || (stopBeforeCallback && url.pathname === '/api/sso/callback');
  const page = await browser.visit(`${base}/api/sso/start?email=${encodeURIComponent(email)}`, { stopAt });
  // Refused before the provider, or the provider's session of this browser answered at once.
  if (!page.url.pathname.startsWith('/interaction/')) return page;
  return browser.visit(new URL(`${page.url.pathname}/login`, page.url), {
    form: { account: who.sub, ...(acr ? { acr } : {}) },
    stopAt,
  });
}

const refusedWith = (visit: Visit) =>
  visit.url.pathname === '/login' ? visit.url.searchParams.get('sso') : null;

async function sessionOf(browser: TestBrowser) {
  const jwt = browser.cookie(base, 'jwt');
  if (!jwt) return null;
  const res = await t.app.inject({ url: '/api/session', headers: { cookie: `jwt=${jwt}` } });
  return res.statusCode === 200
    ? res.json<{ user_name: string; role: string; single_sign_on?: boolean }>()
    : null;
}

async function auditOf(action: string) {
  return rowsOf<{ admin_user_name: string; detail: string | null; admin_user_id: number | null }>(
    await t.ctx.database.db.execute(
      sql`select admin_user_name, detail, admin_user_id from audit_events where action = ${action} order by audit_event_id`,
    ),
  );
}

describe('single sign-on through a real OpenID provider', () => {
  it('creates an unknown person on their first sign-in (just in time) with the role from their claims, and finds them by subject after', async () => {
    const lead = account(['pathway-lead', 'something-else']);
    await withProvider({ accounts: [lead] });
    const browser = new TestBrowser();

    const lookup = await t.app.inject({
      url: `/api/sso/lookup?email=${encodeURIComponent(String(lead.claims.email))}`,
    });
    expect(lookup.json()).toEqual({ single_sign_on: true });
    expect((await t.app.inject({ url: '/api/sso/lookup?email=someone@elsewhere.example' })).json()).toEqual({
      single_sign_on: false,
    });

    const back = await signIn(browser, lead);
    expect(back.url.pathname, back.url.href).toBe('/dashboard');
    const session = await sessionOf(browser);
    expect(session).toMatchObject({
      user_name: String(lead.claims.email),
      role: 'full access',
      single_sign_on: true,
    });
    expect((await auditOf('sso.jit_create')).map((e) => e.admin_user_name)).toContain(
      String(lead.claims.email),
    );
    expect((await auditOf('signin.success')).at(-1)?.detail).toBe(`single sign-on (${provider!.issuer})`);
    // The flow cookie is spent; a second sign-in finds the same admin by subject, creating nobody.
    expect(browser.cookie(`${base}/api/sso/`, 'sso_flow')).toBeUndefined();
    const again = await signIn(new TestBrowser(), lead);
    expect(again.url.pathname).toBe('/dashboard');
    const rows = rowsOf<{ n: number }>(
      await t.ctx.database.db.execute(
        sql`select count(*)::int as n from admin_users where sso_subject = ${lead.sub}`,
      ),
    );
    expect(rows[0]!.n).toBe(1);
  });

  it('links an existing admin by a verified email of its domains and updates their role from the claims; an unverified email links nobody', async () => {
    const existing = await createAdmin(t.ctx, 'basic access', { user_name: `linked.${testId()}@${DOMAIN}` });
    const person: TestAccount = {
      sub: `sub-${testId()}`,
      claims: { email: existing.user_name.toUpperCase(), email_verified: true, roles: 'pathway-lead' },
    };
    const unverified = account(['pathway-lead'], { email: existing.user_name, email_verified: false });
    const stranger = account(['pathway-lead']);
    await withProvider({ accounts: [person, unverified, stranger] }, { jit: false });

    expect(refusedWith(await signIn(new TestBrowser(), unverified))).toBe('email_unverified');
    expect(refusedWith(await signIn(new TestBrowser(), stranger))).toBe('unknown_user');

    const browser = new TestBrowser();
    expect((await signIn(browser, person)).url.pathname).toBe('/dashboard');
    expect(await sessionOf(browser)).toMatchObject({ user_name: existing.user_name, role: 'full access' });
    expect((await auditOf('sso.link')).at(-1)?.admin_user_id).toBe(existing.admin_user_id);
    expect((await auditOf('admin.role_change')).at(-1)?.detail).toBe(
      `basic access to full access, from the claims of ${provider!.issuer}`,
    );
  });

  it('refuses a role claim that maps to no role, and ends the sessions the person already had', async () => {
    const person = account(['pathway-clinician']);
    await withProvider({ accounts: [person] });
    const first = new TestBrowser();
    expect((await signIn(first, person)).url.pathname).toBe('/dashboard');
    expect(await sessionOf(first)).toMatchObject({ role: 'basic access' });

    person.claims.roles = ['retired'];
    const second = new TestBrowser();
    const refused = await signIn(second, person);
    expect(refusedWith(refused)).toBe('role');
    expect(second.cookie(base, 'jwt')).toBeUndefined();
    expect(await sessionOf(first)).toBeNull();
    expect((await auditOf('sso.refused')).at(-1)?.detail).toMatch(/^role: .*their sessions ended/);

    delete person.claims.roles;
    expect(refusedWith(await signIn(new TestBrowser(), person))).toBe('role');
  });

  it('limits a person to the sites their site claim names, refuses a claim naming none, and signs in no admin of another organisation', async () => {
    const db = t.ctx.database.db;
    const [{ organisation_id: home }] = rowsOf<{ organisation_id: number }>(
      await db.execute(sql`select organisation_id from sites order by site_id limit 1`),
    ) as [{ organisation_id: number }];
    const code = `S${1000 + Math.floor(Math.random() * 9000)}`;
    const [north, south] = rowsOf<{ site_id: number }>(
      await db.execute(sql`insert into sites (organisation_id, name, ods_code)
        values (${home}, ${`North hub ${testId()}`}, ${code}), (${home}, ${`South hub ${testId()}`}, null)
        returning site_id`),
    ) as [{ site_id: number }, { site_id: number }];
    const southName = rowsOf<{ name: string }>(
      await db.execute(sql`select name from sites where site_id = ${south.site_id}`),
    )[0]!.name;
    const [{ organisation_id: elsewhere }] = rowsOf<{ organisation_id: number }>(
      await db.execute(sql`insert into organisations (name) values (${`Another trust ${testId()}`})
        returning organisation_id`),
    ) as [{ organisation_id: number }];

    // The claim names one site by its ODS code (in lower case) and one that does not exist.
    const person = account(['pathway-clinician'], { sites: [code.toLowerCase(), 'Nowhere'] });
    const nobody = account(['pathway-clinician'], { sites: ['Nowhere'] });
    const otherTrusts = await createAdmin(t.ctx, 'basic access', {
      user_name: `other.${testId()}@${DOMAIN}`,
      organisation_id: elsewhere,
    });
    const theirs: TestAccount = {
      sub: `sub-${testId()}`,
      claims: { email: otherTrusts.user_name, email_verified: true, roles: ['pathway-lead'], sites: [code] },
    };
    await withProvider({ accounts: [person, nobody, theirs] }, { site_claim: 'sites' });

    const siteIdsOf = async (userName: string) =>
      rowsOf<{ site_ids: number[] }>(
        await db.execute(sql`select site_ids from admin_users where lower(user_name) = lower(${userName})`),
      )[0]?.site_ids;
    const browser = new TestBrowser();
    expect((await signIn(browser, person)).url.pathname).toBe('/dashboard');
    expect(await siteIdsOf(String(person.claims.email))).toEqual([north.site_id]);

    // Their sites follow the claim at the next sign-in, and the change is audited.
    person.claims.sites = [southName.toUpperCase(), code];
    expect((await signIn(new TestBrowser(), person)).url.pathname).toBe('/dashboard');
    expect(await siteIdsOf(String(person.claims.email))).toEqual(
      [north.site_id, south.site_id].sort((a, b) => a - b),
    );
    expect((await auditOf('admin.sites_change')).at(-1)?.detail).toMatch(/from the claims of/);

    // A claim naming no site of the organisation would mean "every site": refused, sessions ended.
    person.claims.sites = ['Nowhere'];
    expect(refusedWith(await signIn(new TestBrowser(), person))).toBe('sites');
    expect(await sessionOf(browser)).toBeNull();
    expect(refusedWith(await signIn(new TestBrowser(), nobody))).toBe('sites');
    expect(await siteIdsOf(String(nobody.claims.email))).toBeUndefined();

    // An admin of another organisation is not signed in by this organisation's provider.
    expect(refusedWith(await signIn(new TestBrowser(), theirs))).toBe('other_organisation');
    expect((await auditOf('sso.refused')).at(-1)?.detail).toMatch(/^other_organisation: /);

    // The other organisation's settings: a 404 to this organisation's full access.
    const ours = await signedInCookie(t.ctx, 'full access', { system_administrator: false });
    const res = await t.app.inject({
      url: `/api/organisations/${elsewhere}/sso`,
      headers: { cookie: ours.cookie },
    });
    expect(res.statusCode).toBe(404);
    // A system administrator reads any organisation's (none set there yet).
    const asSystemAdministrator = await t.app.inject({
      url: `/api/organisations/${elsewhere}/sso`,
      headers: { cookie: fullCookie },
    });
    expect(asSystemAdministrator.statusCode, asSystemAdministrator.body).toBe(200);
    expect(asSystemAdministrator.json()).toMatchObject({ configured: false });
  });

  it('refuses an unknown email domain, and a provider that cannot be reached, on the sign-in page', async () => {
    const person = account(['pathway-lead']);
    await withProvider({ accounts: [person] });
    const browser = new TestBrowser();
    const unknown = await browser.request(`${base}/api/sso/start?email=someone%40elsewhere.example`);
    expect(unknown.status).toBe(302);
    expect(unknown.location?.href).toBe(`${base}/login?sso=unknown_domain`);
    expect((await auditOf('sso.refused')).at(-1)).toMatchObject({
      admin_user_name: 'someone@elsewhere.example',
    });
    expect(browser.cookie(`${base}/api/sso/`, 'sso_flow')).toBeUndefined();

    await provider!.close();
    const down = await browser.request(
      `${base}/api/sso/start?email=${encodeURIComponent(String(person.claims.email))}`,
    );
    expect(down.location?.href).toBe(`${base}/login?sso=provider_unreachable`);
    expect(messages.sso.refused.provider_unreachable).toMatch(/break-glass/);
  });

  const tampered: Array<[string, string, TestProviderOptions['tamperIdToken']]> = [
    [
      'another issuer',
      'issuer',
      (token, sign) => sign({}, { ...claimsOf(token), iss: 'https://another-provider.example' }),
    ],
    [
      'another audience',
      'audience',
      (token, sign) => sign({}, { ...claimsOf(token), aud: 'another-client' }),
    ],
    [
      'another nonce',
      'nonce',
      (token, sign) => sign({}, { ...claimsOf(token), nonce: 'not the nonce of this sign-in' }),
    ],
    [
      'a changed payload (bad signature)',
      'signature',
      (token) => {
        const [header, , signature] = token.split('.');
        const payload = Buffer.from(
          JSON.stringify({ ...claimsOf(token), roles: ['pathway-lead', 'tampered'] }),
        ).toString('base64url');
        return `${header}.${payload}.${signature}`;
      },
    ],
    [
      'no signature (alg none)',
      'signature',
      (token) => {
        const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
        return `${header}.${token.split('.')[1]}.`;
      },
    ],
    [
      'an ID token that expired',
      'expired',
      (token, sign) => {
        const now = Math.floor(Date.now() / 1000);
        return sign({}, { ...claimsOf(token), iat: now - 7200, exp: now - 3600 });
      },
    ],
  ];
  it.each(tampered)(
    'refuses %s from the token endpoint, creating no session',
    async (_what, reason, tamperIdToken) => {
      const person = account(['pathway-lead']);
      await withProvider({ accounts: [person], tamperIdToken });
      const browser = new TestBrowser();
      const back = await signIn(browser, person);
      expect(refusedWith(back)).toBe(reason);
      expect(browser.cookie(base, 'jwt')).toBeUndefined();
      expect((await auditOf('sso.refused')).at(-1)?.detail).toMatch(new RegExp(`^${reason}: `));
    },
  );

  it('refuses an ID token past its expiry by the application clock (a real token of the provider, judged later)', async () => {
    const person = account(['pathway-lead']);
    await withProvider({ accounts: [person], idTokenTtl: 60 });
    const browser = new TestBrowser();
    const atCallback = await signIn(browser, person, { stopBeforeCallback: true });
    expect(atCallback.url.pathname).toBe('/api/sso/callback');
    clock.advance(5 * 60_000); // within the flow's 10 minutes, past the token's 60 s
    const back = await browser.visit(atCallback.url, { stopAt: atPathway });
    expect(refusedWith(back)).toBe('expired');
  });

  it('asks for acr_values and refuses a sign-in at a lower assurance level', async () => {
    const person = account(['pathway-lead']);
    await withProvider(
      { accounts: [person], acrValues: ['AAL1_USERPASS', 'AAL3_ANY'] },
      { acr_values: 'AAL3_ANY' },
    );
    const start = await new TestBrowser().request(
      `${base}/api/sso/start?email=${encodeURIComponent(String(person.claims.email))}`,
    );
    expect(start.location?.searchParams.get('acr_values')).toBe('AAL3_ANY');
    expect(refusedWith(await signIn(new TestBrowser(), person, { acr: 'AAL1_USERPASS' }))).toBe('acr');
    expect((await signIn(new TestBrowser(), person, { acr: 'AAL3_ANY' })).url.pathname).toBe('/dashboard');
  });

  it('binds the state to the browser: a replayed callback, a reused code and a callback from another browser (login CSRF) are refused', async () => {
    const person = account(['pathway-lead']);
    const attacker = account(['pathway-clinician']);
    await withProvider({ accounts: [person, attacker] });

    // The attacker signs in at the provider and keeps the callback address instead of following it.
    const attackerBrowser = new TestBrowser();
    const forged = await signIn(attackerBrowser, attacker, { stopBeforeCallback: true });
    // The victim's browser is made to open it: it holds no flow cookie, or one of its own flow.
    const victim = new TestBrowser();
    expect(refusedWith(await victim.visit(forged.url, { stopAt: atPathway }))).toBe('state');
    await victim.request(`${base}/api/sso/start?email=${encodeURIComponent(String(person.claims.email))}`);
    expect(victim.cookie(`${base}/api/sso/`, 'sso_flow')).toBeDefined();
    expect(refusedWith(await victim.visit(forged.url, { stopAt: atPathway }))).toBe('state');
    expect(victim.cookie(base, 'jwt')).toBeUndefined();

    // A finished sign-in's callback, sent again with the same cookie: the state works once.
    const browser = new TestBrowser();
    const atCallback = await signIn(browser, person, { stopBeforeCallback: true });
    const flowCookie = browser.cookie(`${base}/api/sso/`, 'sso_flow')!;
    expect((await browser.visit(atCallback.url, { stopAt: atPathway })).url.pathname).toBe('/dashboard');
    const replay = new TestBrowser();
    replay.setCookie(base, 'sso_flow', flowCookie, '/api/sso/');
    expect(refusedWith(await replay.visit(atCallback.url, { stopAt: atPathway }))).toBe('state');

    // The used code with a fresh state of this browser: the provider refuses it (the code is spent).
    const fresh = await signIn(browser, person, { stopBeforeCallback: true });
    const reused = new URL(fresh.url);
    reused.searchParams.set('code', atCallback.url.searchParams.get('code')!);
    expect(refusedWith(await browser.visit(reused, { stopAt: atPathway }))).toBe('code');
    expect((await auditOf('sso.refused')).at(-1)?.detail).toMatch(/^code: /);
  });

  it('sends the browser nowhere but the provider and fixed addresses of the console, whatever the request says', async () => {
    const person = account(['pathway-lead']);
    await withProvider({ accounts: [person] });
    const browser = new TestBrowser();
    const evil = encodeURIComponent('https://evil.example/steal');
    const start = await browser.request(
      `${base}/api/sso/start?email=${encodeURIComponent(String(person.claims.email))}&redirect_uri=${evil}&return_to=${evil}&next=//evil.example`,
    );
    expect(start.location!.origin).toBe(provider!.issuer);
    expect(start.location!.searchParams.get('redirect_uri')).toBe(`${base}/api/sso/callback`);

    const atCallback = await signIn(browser, person, { stopBeforeCallback: true });
    const withExtra = new URL(atCallback.url);
    withExtra.searchParams.set('return_to', 'https://evil.example/');
    withExtra.searchParams.set('redirect_uri', 'https://evil.example/');
    const back = await browser.visit(withExtra, { stopAt: atPathway });
    expect(back.url.href).toBe(`${base}/dashboard`);
    for (const url of [...back.chain, ...atCallback.chain])
      expect([base, provider!.issuer]).toContain(url.origin);

    const refused = await browser.request(`${base}/api/sso/start?email=x%40evil.example&return_to=${evil}`);
    expect(refused.location!.href).toBe(`${base}/login?sso=unknown_domain`);
    const badCallback = await browser.request(`${base}/api/sso/callback?state=x&code=y&return_to=${evil}`);
    expect(badCallback.location!.href).toBe(`${base}/login?sso=state`);
  });

  it("signs in with private_key_jwt, Pathway's key fetched by the provider from its JWKS", async () => {
    const person = account(['pathway-lead']);
    provider = await startTestProvider({
      clients: [
        client({
          client_secret: undefined,
          token_endpoint_auth_method: 'private_key_jwt',
          jwks_uri: `${base}/api/sso/jwks.json`,
        }),
      ],
      accounts: [person],
    });
    const saved = await configure({ client_auth: 'private_key_jwt', client_secret: undefined });
    expect(saved.statusCode, saved.body).toBe(200);
    const jwks = await t.app.inject({ url: '/api/sso/jwks.json' });
    const keys = jwks.json<{ keys: Array<Record<string, unknown>> }>().keys;
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ kty: 'RSA', use: 'sig' });
    expect(keys[0]).not.toHaveProperty('d');
    const browser = new TestBrowser();
    expect((await signIn(browser, person)).url.pathname).toBe('/dashboard');
    expect(await sessionOf(browser)).toMatchObject({ single_sign_on: true });
    // The key stays the same across saves: the provider may keep it registered.
    await configure({ client_auth: 'private_key_jwt', client_secret: undefined });
    expect((await t.app.inject({ url: '/api/sso/jwks.json' })).json<{ keys: unknown[] }>().keys).toEqual(
      keys,
    );
  });

  it('ends every Pathway session of a person signed out at the provider (back-channel logout), and gives RP-initiated logout to the console', async () => {
    const person = account(['pathway-lead']);
    await withProvider({ accounts: [person] });
    const browser = new TestBrowser();
    expect((await signIn(browser, person)).url.pathname).toBe('/dashboard');
    const other = new TestBrowser();
    expect((await signIn(other, person)).url.pathname).toBe('/dashboard');
    expect(await sessionOf(browser)).not.toBeNull();

    // Pathway's own logout of the second session: the console is given the provider's end-session address.
    const logout = await t.app.inject({
      method: 'POST',
      url: '/logout',
      headers: { cookie: `jwt=${other.cookie(base, 'jwt')}`, host: new URL(base).host },
    });
    const endSession = new URL(logout.json<{ end_session_url: string }>().end_session_url);
    expect(endSession.origin).toBe(provider!.issuer);
    expect(endSession.searchParams.get('client_id')).toBe('pathway');
    expect(endSession.searchParams.get('post_logout_redirect_uri')).toBe(`${base}/login`);
    expect(endSession.searchParams.has('id_token_hint')).toBe(false);

    // The person signs out at the provider in the first browser: it confirms, then calls Pathway.
    const confirm = await browser.visit(endSession);
    const form = /<form[^>]*action="([^"]+)"[\s\S]*?name="xsrf" value="([^"]+)"/.exec(confirm.body);
    expect(form, confirm.body.slice(0, 300)).not.toBeNull();
    const done = await browser.visit(new URL(form![1]!, endSession), {
      form: { xsrf: form![2]!, logout: 'yes' },
      stopAt: atPathway,
    });
    expect(done.url.href).toBe(`${base}/login`);
    await waitUntil(
      async () => (await sessionOf(browser)) === null,
      'the back-channel logout to end the session',
    );
    expect(provider!.backchannelLogouts).toContain(200);
    expect((await auditOf('sso.backchannel_logout')).at(-1)?.admin_user_name).toBe(
      String(person.claims.email),
    );
  });

  it('validates a logout token as Back-Channel Logout 1.0 section 2.6 says', async () => {
    const person = account(['pathway-lead']);
    const p = await withProvider({ accounts: [person] });
    const browser = new TestBrowser();
    expect((await signIn(browser, person)).url.pathname).toBe('/dashboard');
    const now = Math.floor(Date.now() / 1000);
    const good = {
      iss: p.issuer,
      aud: 'pathway',
      iat: now,
      exp: now + 120,
      jti: testId(),
      sub: person.sub,
      events: { 'http://schemas.openid.net/event/backchannel-logout': {} },
    };
    const post = (token: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/sso/backchannel-logout',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ logout_token: token }).toString(),
      });
    const { privateKey } = await import('node:crypto').then((c) =>
      c.generateKeyPairSync('rsa', { modulusLength: 2048 }),
    );
    const otherKey = (claims: object) => {
      const part = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
      const input = `${part({ alg: 'RS256', kid: 'not-the-providers' })}.${part(claims)}`;
      return `${input}.${createSignature(input, privateKey)}`;
    };
    const unsigned = (claims: object) =>
      `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`;
    const refused: Array<[string, string]> = [
      ['signed by another key', otherKey({ ...good, jti: testId() })],
      ['unsigned', unsigned({ ...good, jti: testId() })],
      ['of another audience', p.sign({}, { ...good, jti: testId(), aud: 'another-client' })],
      ['of another issuer', p.sign({}, { ...good, jti: testId(), iss: 'https://another.example' })],
      ['expired', p.sign({}, { ...good, jti: testId(), iat: now - 600, exp: now - 300 })],
      ['without exp', p.sign({}, { ...good, jti: testId(), exp: undefined })],
      ['without events', p.sign({}, { ...good, jti: testId(), events: undefined })],
      ['with another event', p.sign({}, { ...good, jti: testId(), events: { 'https://example/other': {} } })],
      ['with a nonce (an ID token)', p.sign({}, { ...good, jti: testId(), nonce: 'n' })],
      ['with neither sub nor sid', p.sign({}, { ...good, jti: testId(), sub: undefined })],
      ['encrypted (five parts)', 'a.b.c.d.e'],
      ['not a JWT', 'hello'],
    ];
    for (const [what, token] of refused) {
      const res = await post(token);
      expect(res.statusCode, what).toBe(400);
      expect(res.json(), what).toEqual({ message: messages.sso.logoutTokenInvalid });
    }
    expect(await sessionOf(browser), 'no refused token ended the session').not.toBeNull();

    const token = p.sign({ typ: 'logout+jwt' }, good);
    expect((await post(token)).statusCode).toBe(200);
    expect(await sessionOf(browser)).toBeNull();
    expect((await post(token)).statusCode, 'a jti is used once').toBe(400);
  });

  it('refuses password sign-in when single sign-on is required, except the break-glass accounts, whose sign-ins full access sees', async () => {
    const person = account(['pathway-lead']);
    await withProvider({ accounts: [person] });
    const breakGlass = await createAdmin(t.ctx, 'full access');
    const everyday = await createAdmin(t.ctx, 'full access');
    const basicBreakGlass = await createAdmin(t.ctx, 'basic access');

    const needsFull = await configure({ required: true, break_glass: [basicBreakGlass.user_name] });
    expect(needsFull.statusCode).toBe(400);
    expect(needsFull.json()).toMatchObject({ message: messages.sso.breakGlassNeeded });
    expect((await configure({ required: true, break_glass: ['nobody.at.all'] })).json()).toMatchObject({
      message: messages.sso.breakGlassUnknown('nobody.at.all'),
    });
    expect(
      (await configure({ required: true, break_glass: [breakGlass.user_name.toUpperCase()] })).statusCode,
    ).toBe(200);

    const login = (admin: typeof everyday) =>
      t.app.inject({
        method: 'POST',
        url: '/login',
        payload: {
          user_name: admin.user_name,
          password: admin.password,
          mfa_token: totpCode(admin.user_name, admin.totpSecret, new Date()),
        },
      });
    const refused = await login(everyday);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: messages.sso.passwordNotAllowed });
    expect(refused.headers['set-cookie']).toBeUndefined();
    expect((await auditOf('signin.password_refused')).at(-1)?.admin_user_name).toBe(everyday.user_name);

    const allowed = await login(breakGlass);
    expect(allowed.statusCode, allowed.body).toBe(200);
    expect((await auditOf('signin.break_glass')).at(-1)?.admin_user_name).toBe(breakGlass.user_name);
    const seen = await t.app.inject({
      url: '/api/audit?action=signin.break_glass',
      headers: { cookie: fullCookie },
    });
    expect(seen.json<{ data: Array<{ admin_user_name: string }> }>().data[0]?.admin_user_name).toBe(
      breakGlass.user_name,
    );
    // Single sign-on itself goes on.
    expect((await signIn(new TestBrowser(), person)).url.pathname).toBe('/dashboard');
    expect((await configure({ required: false })).statusCode).toBe(200);
    const another = await createAdmin(t.ctx, 'full access');
    expect((await login(another)).statusCode).toBe(200);
  });

  it('steps up through the provider (prompt=login, max_age) for a session that signed in through it', async () => {
    const person = account(['pathway-lead']);
    const someoneElse = account(['pathway-lead']);
    await withProvider({ accounts: [person, someoneElse] });
    const browser = new TestBrowser();
    expect((await signIn(browser, person)).url.pathname).toBe('/dashboard');
    const cookie = `jwt=${browser.cookie(base, 'jwt')}`;
    const ages = async () =>
      t.ctx.database.db.execute(
        sql`update sessions set authenticated_at = now() - interval '10 minutes' where sso_organisation_id is not null`,
      );
    await ages();

    const dangerous = () => configure({}, cookie);
    const asked = await dangerous();
    expect(asked.statusCode).toBe(401);
    expect(asked.json()).toMatchObject({ step_up_required: true });

    const start = await browser.request(`${base}/api/sso/step-up`);
    expect(start.location!.origin).toBe(provider!.issuer);
    expect(start.location!.searchParams.get('prompt')).toBe('login');
    expect(start.location!.searchParams.get('max_age')).toBe('120');

    const stepUp = async (who: TestAccount) => {
      const page = await browser.visit(`${base}/api/sso/step-up`, { stopAt: atPathway });
      expect(page.url.pathname, 'prompt=login asks again though the provider has a session').toMatch(
        /^\/interaction\//,
      );
      const back = await browser.visit(new URL(`${page.url.pathname}/login`, page.url), {
        form: { account: who.sub },
        stopAt: atPathway,
      });
      // Another person signing in ends the provider's session of the first one: its page posts
      // the sign-out on (a browser does it by script), and the provider tells Pathway.
      const autoSubmit = /<form[^>]*action="([^"]+)"[\s\S]*?name="xsrf" value="([^"]+)"/.exec(back.body);
      if (back.status !== 200 || !autoSubmit) return back;
      return browser.visit(new URL(autoSubmit[1]!, back.url), {
        form: { xsrf: autoSubmit[2]!, logout: 'yes' },
        stopAt: atPathway,
      });
    };
    const right = await stepUp(person);
    expect(right.url.href).toBe(`${base}/sso/step-up-done`);
    expect((await dangerous()).statusCode).toBe(200);
    expect((await auditOf('session.step_up')).at(-1)).toMatchObject({
      admin_user_name: String(person.claims.email),
      detail: `through ${provider!.issuer}`,
    });

    // Someone else at the provider confirms nothing: the first person's sessions end instead.
    await ages();
    const wrong = await stepUp(someoneElse);
    expect(wrong.url.pathname).toBe('/sso/step-up-done');
    expect(['other_person', 'session_ended']).toContain(wrong.url.searchParams.get('sso'));
    const after = await dangerous();
    expect(after.statusCode).toBe(401);
    expect(after.json()).not.toHaveProperty('step_up_required');

    // A session signed in with password and code steps up with them, not through the provider.
    const local = await signedInCookie(t.ctx, 'full access');
    const passwordSession = await t.app.inject({
      url: '/api/sso/step-up',
      headers: { cookie: local.cookie },
    });
    expect(passwordSession.headers.location).toBe('/sso/step-up-done?sso=unknown_domain');
  });

  it('answers the settings without secrets, refuses bad ones and other organisations, and tests the connection in words', async () => {
    provider = await startTestProvider({ clients: [client()], accounts: [] });
    const get = () => t.app.inject({ url: '/api/organisations/1/sso', headers: { cookie: fullCookie } });
    expect((await configure()).statusCode).toBe(200);
    const answer = await get();
    expect(answer.body).not.toContain(CLIENT_SECRET);
    expect(answer.json()).toMatchObject({
      configured: true,
      client_secret_set: true,
      email_domains: [DOMAIN],
      redirect_uri: expect.stringMatching(/\/api\/sso\/callback$/),
      backchannel_logout_uri: expect.stringMatching(/\/api\/sso\/backchannel-logout$/),
    });
    const stored = rowsOf<{ client_secret: string }>(
      await t.ctx.database.db.execute(
        sql`select client_secret from sso_configurations where organisation_id = 1`,
      ),
    );
    expect(stored[0]!.client_secret).toMatch(/^v1:/);

    expect((await configure({ issuer: 'http://idp.example.org' })).json()).toMatchObject({
      message: messages.sso.issuerInvalid,
    });
    expect((await configure({ email_domains: ['not a domain'] })).statusCode).toBe(400);
    expect((await configure({ role_map: {} })).statusCode).toBe(400);
    const other = await t.app.inject({
      url: '/api/organisations/999999/sso',
      headers: { cookie: fullCookie },
    });
    expect(other.statusCode).toBe(404);
    const basic = await signedInCookie(t.ctx, 'basic access');
    expect(
      (await t.app.inject({ url: '/api/organisations/1/sso', headers: { cookie: basic.cookie } })).statusCode,
    ).toBe(403);

    const test = (payload: object) =>
      t.app.inject({
        method: 'POST',
        url: '/api/organisations/1/sso/test',
        headers: { cookie: fullCookie },
        payload,
      });
    const ok = (await test({})).json<{
      ok: boolean;
      message: string;
      checks: Array<{ check: string; ok: boolean; detail: string }>;
    }>();
    expect(ok.ok, ok.message).toBe(true);
    expect(ok.checks.find((c) => c.check === 'back-channel logout')?.detail).toMatch(
      /supports back-channel logout/,
    );
    const wrongIssuer = (await test({ issuer: `${provider.issuer}/` })).json<{
      ok: boolean;
      message: string;
    }>();
    expect(wrongIssuer.ok).toBe(false);
    expect(wrongIssuer.message).toMatch(/names its issuer/);
    const acr = (await test({ acr_values: 'AAL3_ANY' })).json<{
      checks: Array<{ check: string; detail: string }>;
    }>();
    expect(acr.checks.find((c) => c.check === 'acr values')?.detail).toMatch(/acr/);
    await provider.close();
    const down = (await test({})).json<{ ok: boolean; message: string }>();
    expect(down.ok).toBe(false);
    expect(down.message).toMatch(/connection refused/);
    provider = undefined;
  });
});

function createSignature(input: string, key: KeyObject): string {
  return createSign('RSA-SHA256').update(input).sign(key).toString('base64url');
}

/** The claims of a JWT, unverified (for a test that changes a token). */
function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
}
