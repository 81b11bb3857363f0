import axe from 'axe-core';
import { test as base, expect, request, type APIRequestContext, type Page } from '@playwright/test';
import { limits, type CreatedAdminUser, type Role } from '@pathway/contract';
import * as OTPAuth from 'otpauth';
import { e2eEnv, type BootstrapAdmin, type WorkerAdmin } from './env';

export type { BootstrapAdmin };

export { expect };

/** WCAG 2.0, 2.1 and 2.2, levels A and AA. */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

/**
 * What a page showed when axe last looked at it: the check at the end of a test is skipped when
 * nothing has changed since the test's own last check.
 */
const checked = new WeakMap<Page, string>();

function snapshot(page: Page): Promise<string> {
  return page.evaluate(() => `${location.href}\n${document.title}\n${document.body.innerHTML}`);
}

/**
 * axe-core's violations of the WCAG rules on what the page shows now, from `axe.run` in the page.
 * axe-core is loaded into a document once and kept there across the console's own navigations.
 * `@axe-core/playwright`'s AxeBuilder, used before, loaded it again on every check and finished
 * each run in a new blank page: 0.7-1.1 s a check on 2 cores against 0.1-0.16 s this way (the
 * same rules and results), and its checks were a third of the browser suite's time
 * (docs/testing.md). The console has no frames, which that builder exists to reach.
 */
async function axeViolations(page: Page): Promise<axe.Result[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  return page.evaluate(
    (tags) =>
      (window as unknown as { axe: typeof axe }).axe
        .run(document, { runOnly: { type: 'tag', values: tags } })
        .then((results) => results.violations),
    WCAG_TAGS,
  );
}

/**
 * Runs axe-core on what the page shows now and fails on any serious or critical violation.
 * Call it on every screen and every modal a test opens; every test also runs it on its page at its
 * end, unless that page is unchanged since its last check (the `accessibleAtEnd` fixture).
 */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  const violations = await axeViolations(page);
  checked.set(page, await snapshot(page));
  if (violations.length > 0) {
    await base
      .info()
      .attach(`axe ${label}`, { body: JSON.stringify(violations, null, 2), contentType: 'application/json' });
  }
  const blocking = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const report = blocking
    .map(
      (v) =>
        `- ${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(' ')}: ${n.failureSummary ?? ''}`).join('\n')}`,
    )
    .join('\n');
  expect(blocking.length, `Accessibility violations on "${label}":\n${report}`).toBe(0);
}

export interface TestAdmin {
  user_name: string;
  password: string;
  role: Role;
  first_name: string;
  last_name: string;
  totp: OTPAuth.TOTP;
  /** The TOTP time step last used to sign in: the server accepts each code once. */
  lastStep?: number;
}

/**
 * The admin's next unused code, at once. The server accepts an admin's 30 s steps in increasing
 * order, each once, within one step of drift either side of its clock (`limits.totpDriftSteps`):
 * the previous, the current and the next step. `nextCode` answers the current step's code, or the
 * next one's when that is used (what a phone whose clock runs a little ahead shows). The `signIn`
 * fixture starts at the `previous` step (a phone running a little behind), so a test has three
 * codes of one admin within one step (sign in, change the password, sign in again) and never waits
 * for the clock; a fourth is an error: the test should use another admin.
 */
export function nextCode(admin: TestAdmin, from: 'previous' | 'current' = 'current'): string {
  const period = admin.totp.period * 1000;
  const now = Math.floor(Date.now() / period);
  const earliest = from === 'previous' ? now - limits.totpDriftSteps : now;
  const step = admin.lastStep === undefined ? earliest : Math.max(earliest, admin.lastStep + 1);
  if (step > now + limits.totpDriftSteps) {
    throw new Error(
      `${admin.user_name} has used every code the server accepts before the next 30 s step: sign in another admin`,
    );
  }
  admin.lastStep = step;
  return admin.totp.generate({ timestamp: step * period });
}

export function totpFromUrl(otpauthUrl: string): OTPAuth.TOTP {
  const otp = OTPAuth.URI.parse(otpauthUrl);
  if (!(otp instanceof OTPAuth.TOTP)) throw new Error('Not a TOTP enrolment');
  return otp;
}

/**
 * Confirms the worker admin's API session again (POST /api/session/step-up, issue 32): a dangerous
 * call (a full-access admin added, a participant deleted) needs a sign-in or step-up within the
 * last 5 minutes, and the worker's session is older. The current step's code is unused: this admin
 * is the worker's own, and its last sign-in or step-up is those 5 minutes old.
 */
export async function stepUpSetupAdmin(api: APIRequestContext, admin: BootstrapAdmin): Promise<void> {
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(admin.totp_secret) });
  const response = await api.post('/api/session/step-up', {
    data: { password: admin.password, mfa_token: totp.generate() },
  });
  if (!response.ok())
    throw new Error(`The setup admin could not step up: ${response.status()} ${await response.text()}`);
}

/** A call through the setup admin's API that steps up first when the server asks for it. */
export async function withStepUp(
  api: APIRequestContext,
  admin: BootstrapAdmin,
  send: () => ReturnType<APIRequestContext['post']>,
): ReturnType<APIRequestContext['post']> {
  const first = await send();
  if (first.status() !== 401) return first;
  const body = (await first.json().catch(() => ({}))) as { step_up_required?: boolean };
  if (!body.step_up_required) return first;
  await stepUpSetupAdmin(api, admin);
  return send();
}

let counter = 0;
export function uniqueUserName(prefix: string): string {
  counter += 1;
  return `${prefix}.${Date.now().toString(36)}${counter}${Math.random().toString(36).slice(2, 6)}@example.org`;
}

/** Fills the sign-in form, email first (with spaces around the values: the form trims them). */
export async function fillSignIn(page: Page, admin: Pick<TestAdmin, 'user_name' | 'password'>, code: string) {
  await page.getByLabel(/^Email address or user name/).fill(`  ${admin.user_name} `);
  // The email comes first (its domain may sign in through a provider); the password and code after.
  const continueButton = page.getByRole('button', { name: 'Continue' });
  if (await continueButton.isVisible()) await continueButton.click();
  await page.getByLabel(/^Password/).fill(admin.password);
  await page.getByLabel(/^MFA code/).fill(` ${code} `);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/**
 * Signs in on the sign-in page with the admin's next code from the previous step, and waits for
 * the dashboard's address.
 */
export async function signInOnPage(page: Page, admin: TestAdmin): Promise<void> {
  await page.goto('/login');
  for (let attempt = 1; ; attempt++) {
    const answered = page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/login' && r.request().method() === 'POST',
    );
    await fillSignIn(page, admin, nextCode(admin, 'previous'));
    // The previous step's code is refused when the server's clock crossed into the next step
    // between the code and its check; the then previous step's code is not. One retry, as a
    // step lasts 30 s; any other refusal fails again and the test stops at the dashboard check.
    if ((await answered).status() !== 401 || attempt === 2) break;
  }
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** Where a new admin works: another organisation, some sites only, or running the instance. */
export interface AdminPlacement {
  organisation_id?: number;
  site_ids?: number[];
  system_administrator?: boolean;
}

interface Fixtures {
  /**
   * Adds an admin user through the API, as the setup's full-access admin (a system administrator,
   * who may place them in any organisation).
   */
  createAdmin: (role?: Role, placement?: AdminPlacement) => Promise<TestAdmin>;
  /** Signs in through the sign-in page with a TOTP code, and waits for the dashboard. */
  signIn: (admin: TestAdmin) => Promise<void>;
  /** A new admin of the role, signed in through the sign-in page. */
  signInAs: (role: Role, placement?: AdminPlacement) => Promise<TestAdmin>;
  accessibleAtEnd: void;
  noBrowserErrors: void;
}

interface WorkerFixtures {
  /**
   * This worker's full-access admin, which the global setup created with the CLI and signed in
   * once (each worker has its own, so no two share a TOTP code).
   */
  setupAdmin: WorkerAdmin;
  /** The API, signed in as `setupAdmin`. */
  adminApi: APIRequestContext;
}

export const test = base.extend<Fixtures, WorkerFixtures>({
  // eslint-disable-next-line no-empty-pattern -- Playwright requires a destructured fixtures argument even when none are used
  baseURL: async ({}, use) => use(e2eEnv('baseURL')),

  setupAdmin: [
    // eslint-disable-next-line no-empty-pattern -- Playwright requires a destructured fixtures argument even when none are used
    async ({}, use, workerInfo) => {
      // parallelIndex is the worker's slot (0 .. workers - 1), kept by a worker started in place of one that ended.
      const admin = (JSON.parse(e2eEnv('workerAdmins')) as WorkerAdmin[])[workerInfo.parallelIndex];
      if (!admin)
        throw new Error(`No admin for worker slot ${workerInfo.parallelIndex}: see global-setup.ts`);
      await use(admin);
    },
    { scope: 'worker' },
  ],

  adminApi: [
    async ({ setupAdmin }, use) => {
      const api = await request.newContext({
        baseURL: e2eEnv('baseURL'),
        storageState: setupAdmin.storageState,
      });
      await use(api);
      await api.dispose();
    },
    { scope: 'worker' },
  ],

  createAdmin: async ({ adminApi, setupAdmin }, use) => {
    await use(async (role = 'basic access', placement = {}) => {
      const admin = {
        user_name: uniqueUserName(role === 'full access' ? 'e2e.full' : 'e2e.basic'),
        password: `pw ${Math.random().toString(36).slice(2)} x`,
        role,
        first_name: 'Test',
        last_name: role === 'full access' ? 'Fullaccess' : 'Basicaccess',
      };
      const response = await withStepUp(adminApi, setupAdmin, () =>
        adminApi.post('/api/admin', { data: { ...admin, ...placement } }),
      );
      expect(response.status(), await response.text()).toBe(201);
      const created = (await response.json()) as CreatedAdminUser;
      return { ...admin, totp: totpFromUrl(created.otpauth_url) };
    });
  },

  signIn: async ({ page }, use) => {
    await use(async (admin) => {
      await signInOnPage(page, admin);
      await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    });
  },

  signInAs: async ({ createAdmin, signIn }, use) => {
    await use(async (role, placement) => {
      const admin = await createAdmin(role, placement);
      await signIn(admin);
      return admin;
    });
  },

  // Any page of the test (popups included) that throws, or that the server's CSP blocks something
  // on, fails the test.
  noBrowserErrors: [
    async ({ context }, use) => {
      const problems: string[] = [];
      const watch = (page: Page) => {
        page.on('pageerror', (error) => problems.push(`${page.url()}: ${error.message}`));
        page.on('console', (message) => {
          if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) {
            problems.push(`${page.url()}: ${message.text()}`);
          }
        });
      };
      context.pages().forEach(watch);
      context.on('page', watch);
      await use();
      expect(problems, 'errors in the browser').toEqual([]);
    },
    { auto: true },
  ],

  accessibleAtEnd: [
    async ({ page }, use, testInfo) => {
      await use();
      if (testInfo.status !== testInfo.expectedStatus || page.isClosed() || page.url() === 'about:blank')
        return;
      if (checked.get(page) === (await snapshot(page))) return;
      await expectAccessible(page, `end of "${testInfo.title}"`);
    },
    { auto: true },
  ],
});
