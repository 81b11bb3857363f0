import { SSO_STEP_UP_CHANNEL, messages, type SsoConfig } from '@pathway/contract';
import {
  startTestProvider,
  testId,
  type TestAccount,
  type TestProvider,
} from '../../server/test/oidc-provider';
import type { Page } from '@playwright/test';
import { e2eEnv } from './env';
import { expect, expectAccessible, test, withStepUp } from './fixtures';

/**
 * Single sign-on through the sign-in page, end to end: a real OpenID provider (panva's
 * oidc-provider) on loopback, the real server, Debian's Chromium. The organisation's provider is
 * set on the settings page by a full-access admin; people of its email domain then sign in there.
 * The domain is this file's own, so no other spec's sign-in (at example.org) goes to the provider.
 */

const DOMAIN = 'trust.nhs.example';
const CLIENT_SECRET = `e2e secret ${testId()}`;

function account(roles: string[]): TestAccount {
  const id = testId();
  return {
    sub: `sub-${id}`,
    claims: {
      email: `grace.${id}@${DOMAIN}`,
      email_verified: true,
      given_name: 'Grace',
      family_name: `Hopper${id}`,
      roles,
    },
  };
}

const lead = account(['pathway-lead']);
const stranger = account(['catering']);
let provider: TestProvider;

// In order: the first test sets the provider on the settings page, the others sign in with it.
test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ adminApi }) => {
  // The addresses Pathway asks to be registered with: the provider's client is made with them.
  const answer = await adminApi.get('/api/organisations/1/sso');
  expect(answer.status(), await answer.text()).toBe(200);
  const addresses = (await answer.json()) as SsoConfig;
  provider = await startTestProvider({
    clients: [
      {
        client_id: 'pathway-e2e',
        client_secret: CLIENT_SECRET,
        token_endpoint_auth_method: 'client_secret_basic',
        redirect_uris: [addresses.redirect_uri],
        post_logout_redirect_uris: [addresses.post_logout_redirect_uri],
        backchannel_logout_uri: addresses.backchannel_logout_uri,
        backchannel_logout_session_required: true,
      },
    ],
    accounts: [lead, stranger],
  });
});

test.afterAll(async ({ adminApi, setupAdmin }) => {
  // Sign-in at this domain ends with the file: its provider stops now.
  await withStepUp(adminApi, setupAdmin, () =>
    adminApi.put('/api/organisations/1/sso', {
      data: {
        issuer: provider.issuer,
        client_id: 'pathway-e2e',
        client_auth: 'client_secret_basic',
        email_domains: [],
        role_claim: 'roles',
        role_map: { 'pathway-lead': 'full access' },
        jit: false,
        required: false,
        break_glass: [],
      },
    }),
  );
  await provider.close();
});

/** Signs in at the test provider's own page as `who` (the page the provider shows after the redirect). */
async function signInAtProvider(page: Page, who: TestAccount) {
  await expect(page.getByRole('heading', { name: 'Test identity provider' })).toBeVisible();
  await page.getByLabel('Account').selectOption(who.sub);
  await page.getByRole('button', { name: 'Sign in at the provider' }).click();
}

test('full access sets the provider on the settings page, tests the connection, and saves', async ({
  page,
  signInAs,
}) => {
  await signInAs('full access');
  await page.getByRole('link', { name: 'Single sign-on', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Single sign-on' })).toBeVisible();
  await expect(page.getByText(`${e2eEnv('baseURL')}/api/sso/callback`)).toBeVisible();

  // A provider that is not there: the test says so in words.
  await page.getByLabel(/^Issuer URL/).fill('http://127.0.0.1:9/nowhere');
  await page.getByRole('button', { name: 'Test connection' }).click();
  const verdict = page.getByRole('status', { name: 'Connection test' });
  await expect(verdict).toContainText('Single sign-on would not work:');

  await page.getByLabel(/^Issuer URL/).fill(provider.issuer);
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(verdict).toContainText('The provider can be used');
  await expectAccessible(page, 'single sign-on settings with a connection test');

  await page.getByLabel(/^Client ID/).fill('pathway-e2e');
  await page.getByLabel('Client secret', { exact: true }).fill(CLIENT_SECRET);
  await page.getByLabel('Email domains', { exact: true }).fill(DOMAIN);
  await page.getByLabel(/^Role claim/).fill('roles');
  await page.getByLabel('Claim value 1', { exact: true }).fill('pathway-lead');
  await page.getByRole('switch', { name: /just in time/ }).check();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: messages.sso.saved })).toBeVisible();

  // What was saved comes back without its secret.
  await page.reload();
  await expect(page.getByLabel(/^Client ID/)).toHaveValue('pathway-e2e');
  await expect(page.getByLabel('Client secret', { exact: true })).toHaveValue('');
  await expect(
    page.getByText('A secret is stored (it is never shown). Leave blank to keep it.'),
  ).toBeVisible();
});

test('a person of the domain signs in at the provider, lands on the dashboard, and is signed out by it', async ({
  page,
  context,
}) => {
  await page.goto('/login');
  await page.getByLabel(/^Email address or user name/).fill(` ${String(lead.claims.email)} `);
  await page.getByRole('button', { name: 'Continue' }).click();
  await signInAtProvider(page, lead);

  // Created on the first sign-in (just in time), full access from the role claim.
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(page.getByText(String(lead.claims.family_name))).toBeVisible();
  // Full access sees the break-glass sign-ins.
  await expect(page.getByRole('heading', { name: 'Break-glass sign-ins' })).toBeVisible();

  // Signed out at the provider (in another tab): its back-channel logout ends the console's session.
  const providerTab = await context.newPage();
  await providerTab.goto(`${provider.issuer}/session/end?client_id=pathway-e2e`);
  await providerTab.getByRole('button', { name: /sign me out/i }).click();
  await expect.poll(() => provider.backchannelLogouts).toContain(200);
  await providerTab.close();

  // The console may already have noticed on its own (it asks again when its window is back in
  // focus) and gone to sign in, so a click on its menu would race it: a page opened by its address
  // asks the server whether the session is still there.
  await page.goto('/participants');
  await expect(page).toHaveURL(/\/login/);
});

test("Pathway's logout ends the session at the provider too (RP-initiated logout)", async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel(/^Email address or user name/).fill(String(lead.claims.email));
  await page.getByRole('button', { name: 'Continue' }).click();
  await signInAtProvider(page, lead);
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.getByRole('button', { name: 'Exit' }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  // The provider asks whether to sign out of it as well, then sends the browser back to sign in.
  await page.getByRole('button', { name: /sign me out/i }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect((await page.request.get('/api/session')).status()).toBe(401);

  // Signed out at the provider: the next sign-in asks for the account again.
  await page.getByLabel(/^Email address or user name/).fill(String(lead.claims.email));
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Test identity provider' })).toBeVisible();
});

test('a person whose role claim maps to no role is refused with the reason on the sign-in page', async ({
  page,
}) => {
  await page.goto('/login');
  await page.getByLabel(/^Email address or user name/).fill(String(stranger.claims.email));
  await page.getByRole('button', { name: 'Continue' }).click();
  await signInAtProvider(page, stranger);
  await expect(page).toHaveURL(/\/login\?sso=role$/);
  await expect(page.getByRole('alert')).toHaveText(messages.sso.refused.role);
  // The password form is still there for everyone else.
  await expect(page.getByRole('button', { name: 'Continue' })).toBeVisible();
  await expectAccessible(page, 'sign-in page after a refused single sign-on');
});

test('a person signed in through the provider confirms it is them there (step-up window)', async ({
  page,
}) => {
  await page.goto('/login');
  await page.getByLabel(/^Email address or user name/).fill(String(lead.claims.email));
  await page.getByRole('button', { name: 'Continue' }).click();
  await signInAtProvider(page, lead);
  await expect(page).toHaveURL(/\/dashboard$/);

  // The window the step-up dialog opens (the session's sign-in is minutes old, too recent for the
  // server to ask for it on an action: the API tests cover when it asks). The provider asks for
  // the sign-in again (prompt=login); the window's last page tells the console's window.
  const told = page.evaluate(
    (channelName) =>
      new Promise<unknown>((resolve) => {
        const channel = new BroadcastChannel(channelName);
        channel.onmessage = (event: MessageEvent) => resolve(event.data);
      }),
    SSO_STEP_UP_CHANNEL,
  );
  const opened = page.waitForEvent('popup');
  await page.evaluate((path) => void window.open(path, 'pathway-step-up', 'popup'), '/api/sso/step-up');
  const stepUp = await opened;
  const closed = stepUp.waitForEvent('close');
  await signInAtProvider(stepUp, lead);
  expect(await told).toEqual({ ok: true, message: messages.sso.stepUpDone });
  // Its work done, the window closes itself.
  await closed;
});
