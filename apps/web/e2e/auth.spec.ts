import { messages } from '@pathway/contract';
import { expect, expectAccessible, fillSignIn, nextCode, test } from './fixtures';

test.describe('sign-in', () => {
  test('signs in with user name, password and a TOTP code, then lands on the dashboard', async ({
    page,
    createAdmin,
  }) => {
    const admin = await createAdmin('basic access');

    await page.goto('/');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in with credentials' })).toBeVisible();
    await expect(page.getByRole('img', { name: 'Pathway logo' })).toBeVisible();
    await expect(page.getByRole('contentinfo')).toContainText(String(new Date().getFullYear()));
    await expectAccessible(page, 'sign-in page');

    await fillSignIn(page, admin, nextCode(admin));
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await expect(page.getByRole('banner')).toContainText('Dashboard');
    await expectAccessible(page, 'dashboard');

    // Signed in, the root and the sign-in page both lead into the console.
    await page.goto('/');
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto('/login');
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('a wrong MFA code shows the banner and signs nobody in', async ({ page, createAdmin }) => {
    const admin = await createAdmin('full access');
    const code = nextCode(admin);
    const wrong = String((Number(code) + 500_000) % 1_000_000).padStart(6, '0');

    await page.goto('/login');
    await fillSignIn(page, admin, wrong);
    await expect(page.getByRole('alert')).toHaveText(messages.login.failed);
    await expect(page).toHaveURL(/\/login$/);
    // The used field is cleared for the next code.
    await expect(page.getByLabel(/^MFA code/)).toHaveValue('');
    await expectAccessible(page, 'sign-in page with the failure banner');
    expect((await page.request.get('/api/session')).status()).toBe(401);
  });

  test('an empty form says which starred fields are required, without asking the server', async ({
    page,
  }) => {
    await page.goto('/login');
    let posted = false;
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/login') posted = true;
    });
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByLabel(/^Email address or user name/)).toHaveAccessibleDescription(
      messages.login.userNameEmpty,
    );
    await expect(page.getByLabel(/^Email address or user name/)).toBeFocused();
    await page.getByRole('button', { name: 'Sign in with a password instead' }).click();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByLabel(/^Password/)).toHaveAccessibleDescription(messages.login.passwordEmpty);
    await expect(page.getByLabel(/^MFA code/)).toHaveAccessibleDescription(messages.login.mfaEmpty);
    await expect(page.getByLabel(/^Email address or user name/)).toBeFocused();
    await expect(page.getByRole('alert')).toHaveCount(0);
    await expectAccessible(page, 'sign-in with empty fields');
    expect(posted).toBe(false);
  });

  test('console pages send a visitor without a session to sign in', async ({ page }) => {
    for (const path of [
      '/',
      '/dashboard',
      '/participants',
      '/adminusers',
      '/serverlogs',
      '/video/3',
      '/no-such-page',
    ]) {
      await page.goto(path);
      await expect(page, `${path} without a session`).toHaveURL(/\/login$/);
    }
    await expect(page.getByRole('navigation', { name: 'Main menu' })).toHaveCount(0);
  });

  test('after logout the Back button does not show the console', async ({ page, signInAs, setupAdmin }) => {
    await signInAs('full access');
    await page.getByRole('link', { name: 'Admin Users' }).click();
    await expect(page.getByRole('table', { name: 'Admin users' })).toBeVisible();
    await expect(page.getByText(setupAdmin.user_name)).toBeVisible();

    await page.getByRole('button', { name: 'Exit' }).click();
    await expect(page.getByRole('menuitem', { name: 'Logout' })).toBeVisible();
    await expectAccessible(page, 'Exit menu');
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect((await page.request.get('/api/session')).status()).toBe(401);

    await page.goBack();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { name: 'Sign in with credentials' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main menu' })).toHaveCount(0);
    await expect(page.getByRole('table', { name: 'Admin users' })).toHaveCount(0);
    await expect(page.getByText(setupAdmin.user_name)).toHaveCount(0);
  });
});
