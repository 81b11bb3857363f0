import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { request, type Page } from '@playwright/test';
import { messages } from '@pathway/contract';
import {
  expect,
  expectAccessible,
  fillSignIn,
  nextCode,
  test,
  totpFromUrl,
  uniqueUserName,
  type TestAdmin,
} from './fixtures';
import { repoRoot, serverBundle, waitForPort, waitForReady } from './global-setup';

/**
 * Staff account recovery and the security screens of issue 12: a full-access admin resets another
 * admin's authenticator or password, everyone changes their own password, the audit trail filters
 * by kind, full access lifts a sign-in lock-out, and the sign-in form says when it must wait.
 */

/** The Admin users page, with the row of one admin. */
async function openAdminRow(page: Page, userName: string) {
  await page
    .getByRole('navigation', { name: 'Main menu' })
    .getByRole('link', { name: 'Admin Users' })
    .click();
  const row = page.getByRole('table', { name: 'Admin users' }).getByRole('row').filter({ hasText: userName });
  await expect(row).toBeVisible();
  return row;
}

test.describe('staff account recovery', () => {
  test("a full-access admin resets another admin's authenticator: a new QR code, and their session ends", async ({
    page,
    browser,
    signInAs,
    createAdmin,
  }) => {
    test.setTimeout(120_000);
    const me = await signInAs('full access');
    const target = await createAdmin('basic access');
    const targetContext = await browser.newContext();
    try {
      const targetPage = await targetContext.newPage();
      await targetPage.goto('/login');
      await fillSignIn(targetPage, target, nextCode(target));
      await expect(targetPage).toHaveURL(/\/dashboard$/);

      const row = await openAdminRow(page, target.user_name);
      // One's own row offers no reset: that goes through Change password.
      const myRow = page.getByRole('row').filter({ hasText: me.user_name });
      await expect(myRow.getByRole('button', { name: /^Reset/ })).toHaveCount(0);
      await row.getByRole('button', { name: `Reset authenticator of ${target.user_name}` }).click();
      const dialog = page.getByRole('dialog', { name: 'Reset authenticator' });
      await expect(dialog).toContainText(messages.admin.resetAuthenticatorConfirm);
      await expectAccessible(page, 'reset authenticator modal');
      await dialog.getByRole('button', { name: 'Reset authenticator' }).click();

      const qrCode = dialog.getByRole('img', {
        name: `QR code that adds ${target.user_name} to an authenticator app`,
      });
      await expect(qrCode).toHaveAttribute('src', /^data:image\/png;base64,/);
      await expect(dialog).toContainText(messages.admin.authenticatorReset);
      await expect(dialog.getByRole('button', { name: 'Reset authenticator' })).toHaveCount(0);
      await expectAccessible(page, 'reset authenticator modal with the new QR code');
      const key = (await dialog.locator('code').innerText()).replace(/\s+/g, '');
      await dialog.getByRole('button', { name: 'Close' }).click();
      await expect(dialog).toHaveCount(0);

      // The target's session ended: their next page asks them to sign in.
      await targetPage.reload();
      await expect(targetPage).toHaveURL(/\/login$/);
      // The old authenticator no longer works; the new key does.
      await fillSignIn(targetPage, target, nextCode(target));
      await expect(targetPage.getByRole('alert')).toContainText(messages.login.failed);
      const renewed: TestAdmin = {
        ...target,
        totp: totpFromUrl(`otpauth://totp/Pathway:x?secret=${key}`),
        lastStep: undefined,
      };
      await fillSignIn(targetPage, renewed, nextCode(renewed));
      await expect(targetPage).toHaveURL(/\/dashboard$/);
    } finally {
      await targetContext.close();
    }
  });

  test("a full-access admin resets another admin's password under the policy; their session ends", async ({
    page,
    browser,
    signInAs,
    createAdmin,
  }) => {
    test.setTimeout(120_000);
    await signInAs('full access');
    const target = await createAdmin('basic access');
    const targetContext = await browser.newContext();
    try {
      const targetPage = await targetContext.newPage();
      await targetPage.goto('/login');
      await fillSignIn(targetPage, target, nextCode(target));
      await expect(targetPage).toHaveURL(/\/dashboard$/);

      const row = await openAdminRow(page, target.user_name);
      await row.getByRole('button', { name: `Reset password of ${target.user_name}` }).click();
      const dialog = page.getByRole('dialog', { name: 'Reset password' });
      await expect(dialog).toContainText(messages.admin.resetPasswordConfirm);
      await expectAccessible(page, 'reset password modal');

      // The form's own rules first, then the server's policy in a Warning! box.
      await dialog.getByRole('button', { name: 'Reset password' }).click();
      await expect(dialog.getByText(messages.admin.passwordEmpty)).toBeVisible();
      await dialog.getByLabel(/^New password(?! again)/).fill('password1234');
      await dialog.getByLabel(/^New password again/).fill('password1235');
      await dialog.getByRole('button', { name: 'Reset password' }).click();
      await expect(dialog.getByText(messages.admin.newPasswordsDiffer)).toBeVisible();
      await dialog.getByLabel(/^New password again/).fill('password1234');
      await dialog.getByRole('button', { name: 'Reset password' }).click();
      const warning = dialog.getByRole('alert').filter({ hasText: messages.generic.warningTitle });
      await expect(warning).toContainText(messages.admin.passwordCommon);
      await expectAccessible(page, 'reset password modal with a warning');

      const newPassword = 'walnut harbour lantern sixty';
      await dialog.getByLabel(/^New password(?! again)/).fill(newPassword);
      await dialog.getByLabel(/^New password again/).fill(newPassword);
      await dialog.getByRole('button', { name: 'Reset password' }).click();
      await expect(dialog.getByRole('status')).toHaveText(messages.admin.passwordReset);
      await expectAccessible(page, 'reset password modal, done');
      await dialog.getByRole('button', { name: 'Close' }).click();

      await targetPage.reload();
      await expect(targetPage).toHaveURL(/\/login$/);
      await fillSignIn(targetPage, { ...target, password: newPassword }, nextCode(target));
      await expect(targetPage).toHaveURL(/\/dashboard$/);
    } finally {
      await targetContext.close();
    }
  });

  test('every admin changes their own password from the Exit menu, then signs in with it', async ({
    page,
    signInAs,
  }) => {
    test.setTimeout(150_000);
    const me = await signInAs('basic access');
    await page.getByRole('button', { name: 'Exit' }).click();
    await page.getByRole('menuitem', { name: 'Change password' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change password' });
    await expect(dialog).toBeVisible();
    await expectAccessible(page, 'change password modal');

    const newPassword = 'marigold tunnel otter ninety';
    const code = nextCode(me);
    await dialog.getByLabel(/^Current password/).fill('not my password at all');
    await dialog.getByLabel(/^New password(?! again)/).fill(newPassword);
    await dialog.getByLabel(/^New password again/).fill(newPassword);
    await dialog.getByLabel(/^MFA code/).fill(code);
    await dialog.getByRole('button', { name: 'Change password' }).click();
    const warning = dialog.getByRole('alert').filter({ hasText: messages.generic.warningTitle });
    await expect(warning).toContainText(messages.admin.currentPasswordWrong);
    // A code works once, so the form clears it; this one was never accepted and may be typed again.
    await expect(dialog.getByLabel(/^MFA code/)).toHaveValue('');
    await expectAccessible(page, 'change password modal with a warning');

    await dialog.getByLabel(/^Current password/).fill(me.password);
    await dialog.getByLabel(/^MFA code/).fill(code);
    await dialog.getByRole('button', { name: 'Change password' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('status')).toHaveText(messages.admin.passwordChanged);
    await expectAccessible(page, 'sign-in page after a password change');
    expect((await page.request.get('/api/session')).status()).toBe(401);

    // The old password fails with a valid, unused code; the new one signs in with that same code,
    // which shows that the password, not the code, was refused (a refused password claims no code).
    const unused = nextCode(me);
    await fillSignIn(page, me, unused);
    await expect(page.getByRole('alert')).toContainText(messages.login.failed);
    await fillSignIn(page, { ...me, password: newPassword }, unused);
    await expect(page).toHaveURL(/\/dashboard$/);
  });
});

test.describe('security screens', () => {
  test('the audit trail filters by kind, and its CSV export holds that kind only', async ({
    page,
    signInAs,
    createAdmin,
    setupAdmin,
  }) => {
    const added = await createAdmin('basic access');
    await signInAs('full access');
    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: 'Audit trail' })
      .click();
    const table = page.getByRole('table', { name: 'Audit trail' });
    await expect(table).toBeVisible();

    await page.getByRole('combobox', { name: /^Kind/ }).click();
    await expect(page.getByRole('option', { name: 'All kinds' })).toBeVisible();
    await expect(page.getByRole('option', { name: "Reset an admin's password" })).toBeVisible();
    await expectAccessible(page, 'audit trail kinds');
    const filtered = page.waitForResponse((r) => r.url().includes('action=admin.create'));
    await page.getByRole('option', { name: 'Added admin user', exact: true }).click();
    expect((await filtered).status()).toBe(200);

    const rows = table.locator('tbody tr');
    await expect(rows.filter({ hasText: added.user_name })).toHaveCount(1);
    await expect(rows.filter({ hasText: added.user_name })).toContainText(setupAdmin.user_name);
    const actions = await rows.locator('td:nth-child(3)').allInnerTexts();
    expect(actions.length).toBeGreaterThan(0);
    expect(new Set(actions)).toEqual(new Set(['Added admin user']));
    await expectAccessible(page, 'audit trail of one kind');

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const csv = await readFile(await (await downloading).path(), 'utf8');
    const lines = csv.trim().split('\r\n').slice(1);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((line) => line.includes(',admin.create,'))).toBe(true);
    expect(lines.some((line) => line.includes(added.user_name))).toBe(true);
  });

  test('full access sees a slowed-down user name and lifts the lock after a confirmation', async ({
    page,
    baseURL,
    signInAs,
  }) => {
    const victim = uniqueUserName('e2e.locked');
    const outsider = await request.newContext({ baseURL });
    try {
      for (let i = 0; i < 3; i++) {
        const attempt = await outsider.post('/login', {
          data: { user_name: victim, password: `wrong guess ${i}`, mfa_token: '000000' },
        });
        expect(attempt.status()).toBe(401);
      }
    } finally {
      await outsider.dispose();
    }

    // A user name no admin has belongs to no organisation: its lock is the instance's, which a
    // system administrator manages (an organisation's full access sees its own admins' locks).
    await signInAs('full access', { system_administrator: true });
    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: 'Admin Users' })
      .click();
    const lockouts = page.getByRole('table', { name: 'Sign-in lock-outs' });
    const row = lockouts.getByRole('row').filter({ hasText: victim });
    await expect(row).toContainText('Slowed down');
    await expect(row.getByRole('cell').nth(2)).toHaveText('3');
    await expectAccessible(page, 'admin users with sign-in lock-outs');

    await row.getByRole('button', { name: `Lift lock for ${victim}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Lift sign-in lock' });
    await expect(confirm).toContainText(messages.admin.unlockConfirm);
    await expectAccessible(page, 'lift sign-in lock modal');
    await confirm.getByRole('button', { name: 'Lift lock' }).click();
    await expect(confirm).toHaveCount(0);
    await expect(page.getByRole('status').filter({ hasText: messages.admin.unlocked })).toContainText(victim);
    await expect(lockouts.getByRole('row').filter({ hasText: victim })).toHaveCount(0);
  });

  test("the sign-in form shows the server's message when there were too many attempts", async ({ page }) => {
    test.setTimeout(180_000);
    // A server of its own with the per-address limit at 2, so this test's refusals touch no other.
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pathway-e2e-limits-'));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      LOGIN_LIMIT_PER_ADDRESS: '2',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_TO_STDOUT: 'true',
    };
    delete env.DATABASE_URL;
    const server = spawn(process.execPath, [serverBundle], {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stopped = new Promise((resolve) => server.once('exit', resolve));
    try {
      const baseURL = `http://127.0.0.1:${await waitForPort(server, [])}`;
      await waitForReady(baseURL);
      await page.goto(`${baseURL}/login`);
      const wrong = { user_name: 'someone@example.org', password: 'not the password' };
      for (let i = 0; i < 2; i++) {
        const answered = page.waitForResponse(
          (r) => r.url().endsWith('/login') && r.request().method() === 'POST',
        );
        await fillSignIn(page, wrong, '123456');
        expect((await answered).status()).toBe(401);
        await expect(page.getByRole('alert')).toHaveText(messages.login.failed);
      }
      const limited = page.waitForResponse(
        (r) => r.url().endsWith('/login') && r.request().method() === 'POST',
      );
      await fillSignIn(page, wrong, '123456');
      const response = await limited;
      expect(response.status()).toBe(429);
      const seconds = Number(response.headers()['retry-after']);
      expect(seconds).toBeGreaterThan(0);
      await expect(page.getByRole('alert')).toHaveText(messages.login.tooManyAttempts(seconds));
      await expectAccessible(page, 'sign-in form refused with 429');
    } finally {
      server.kill('SIGTERM');
      await stopped;
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
