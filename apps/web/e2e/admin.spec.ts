import { messages } from '@pathway/contract';
import * as OTPAuth from 'otpauth';
import { expect, expectAccessible, fillSignIn, test, uniqueUserName, type TestAdmin } from './fixtures';

test.describe('admin users', () => {
  test('adds an admin user, shows the QR code, and the new admin can sign in with it', async ({
    page,
    browser,
    signInAs,
  }) => {
    await signInAs('full access');
    await page.getByRole('link', { name: 'Admin Users' }).click();
    const table = page.getByRole('table', { name: 'Admin users' });
    await expect(table).toBeVisible();
    for (const column of [
      'Admin ID',
      'Username',
      'First Name',
      'Last Name',
      'Access level',
      'Added',
      'Actions',
    ]) {
      await expect(table.getByRole('columnheader', { name: column })).toBeVisible();
    }
    await expectAccessible(page, 'admin users');

    await page.getByRole('button', { name: 'Add admin user' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add admin user' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('combobox', { name: /Access level/ })).toHaveText('Basic access');
    await expectAccessible(page, 'add admin user modal');

    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByText(messages.admin.usernameEmpty)).toBeVisible();
    await expect(dialog.getByText(messages.admin.passwordEmpty)).toBeVisible();
    await expectAccessible(page, 'add admin user modal with errors');

    const userName = uniqueUserName('e2e.added');
    const password = 'a long enough password';
    await dialog.getByLabel(/^Username/).fill(userName);
    await dialog.getByLabel(/^Password/).fill(password);
    await dialog.getByLabel(/^First name/).fill('Grace');
    await dialog.getByLabel(/^Last name/).fill('Hopper');
    await dialog.getByRole('button', { name: 'Save' }).click();

    const qrCode = dialog.getByRole('img', { name: `QR code that adds ${userName} to an authenticator app` });
    await expect(qrCode).toBeVisible();
    await expect(qrCode).toHaveAttribute('src', /^data:image\/png;base64,/);
    await expect(dialog.getByRole('listitem')).toHaveCount(3);
    await expect(dialog.getByRole('link', { name: /Google Authenticator on Google Play/ })).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Save' })).toHaveCount(0);
    await expectAccessible(page, 'add admin user modal with the QR code');

    // The key shown beside the code is the one the server enrolled: the new admin signs in with it.
    const key = (await dialog.locator('code').innerText()).replace(/\s+/g, '');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toHaveCount(0);
    const row = table.getByRole('row').filter({ hasText: userName });
    await expect(row).toContainText('Grace');
    await expect(row).toContainText('Hopper');
    await expect(row).toContainText('Basic access');
    await expect(row).toContainText(/\d{2}\/\d{2}\/\d{4}/);

    const context = await browser.newContext();
    try {
      const newcomer = await context.newPage();
      const admin: Pick<TestAdmin, 'user_name' | 'password'> = { user_name: userName, password };
      await newcomer.goto('/login');
      await fillSignIn(
        newcomer,
        admin,
        new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(key) }).generate(),
      );
      await expect(newcomer).toHaveURL(/\/dashboard$/);
      await expect(
        newcomer.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Admin Users' }),
      ).toHaveCount(0);
    } finally {
      await context.close();
    }
  });

  test('edits the role and names of an admin user, then deletes them', async ({
    page,
    signInAs,
    createAdmin,
  }) => {
    await signInAs('full access');
    const other = await createAdmin('basic access');
    await page.getByRole('link', { name: 'Admin Users' }).click();
    const row = page.getByRole('row').filter({ hasText: other.user_name });
    await expect(row).toContainText('Basic access');

    await row.getByRole('button', { name: `Edit ${other.user_name}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit admin user' });
    await expect(edit.getByLabel('Username')).toBeDisabled();
    await expect(edit.getByLabel('Username')).toHaveValue(other.user_name);
    await expectAccessible(page, 'edit admin user modal');
    await edit.getByRole('combobox', { name: /Access level/ }).click();
    await expectAccessible(page, 'access level list');
    await page.getByRole('option', { name: 'Full access' }).click();
    await edit.getByLabel(/^First name/).fill('Ada');
    await edit.getByLabel(/^Last name/).fill('Lovelace');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit).toHaveCount(0);
    await expect(row).toContainText('Full access');
    await expect(row).toContainText('Ada');
    await expect(row).toContainText('Lovelace');

    await row.getByRole('button', { name: `Delete ${other.user_name}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete admin user' });
    await expect(confirm).toContainText(messages.admin.deleteConfirm);
    await expectAccessible(page, 'delete admin user modal');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(confirm).toHaveCount(0);
    await expect(page.getByRole('row').filter({ hasText: other.user_name })).toHaveCount(0);
  });

  test("shows the server's refusal in a Warning! box", async ({ page, signInAs }) => {
    const me = await signInAs('full access');
    await page.goto('/adminusers');

    await page.getByRole('button', { name: 'Add admin user' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add admin user' });
    await dialog.getByLabel(/^Username/).fill(me.user_name);
    await dialog.getByLabel(/^Password/).fill('another long password');
    await dialog.getByRole('button', { name: 'Save' }).click();
    const warning = dialog.getByRole('alert').filter({ hasText: messages.generic.warningTitle });
    await expect(warning).toContainText(messages.admin.usernameTaken);
    await expect(dialog.getByRole('button', { name: 'Save' })).toBeVisible();
    await expectAccessible(page, 'add admin user modal with a warning');
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: `Delete ${me.user_name}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete admin user' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(confirm.getByRole('alert')).toContainText(messages.admin.cannotDeleteSelf);
    await expectAccessible(page, 'delete admin user modal with a warning');
  });
});
