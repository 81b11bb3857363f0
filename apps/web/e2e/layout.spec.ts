import { messages } from '@pathway/contract';
import { expect, expectAccessible, test } from './fixtures';

const staffPages = [
  { link: 'Dashboard', path: '/dashboard', heading: 'Dashboard' },
  { link: 'Participants', path: '/participants', heading: 'Participants' },
  { link: 'Video Sets', path: '/videoset', heading: 'Video Sets' },
  { link: 'Authorised devices', path: '/authoriseddevices', heading: 'Authorised mobile devices' },
];

test.describe('layout and access', () => {
  test('a basic-access admin sees no Admin Users or Server Logs, and cannot reach them', async ({
    page,
    signInAs,
  }) => {
    await signInAs('basic access');
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    for (const { link } of staffPages) await expect(menu.getByRole('link', { name: link })).toBeVisible();
    await expect(menu.getByRole('button', { name: 'Logout' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Admin Users' })).toHaveCount(0);
    await expect(menu.getByRole('link', { name: 'Server Logs' })).toHaveCount(0);

    for (const path of ['/adminusers', '/serverlogs']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: 'Not allowed' })).toBeVisible();
      await expect(page.getByText(messages.session.forbidden)).toBeVisible();
      await expect(page.getByRole('table')).toHaveCount(0);
      await expectAccessible(page, `${path} for basic access`);
    }

    // The server refuses them too: the console only mirrors its rules.
    for (const path of ['/api/admin', '/api/logs/getloglist']) {
      const response = await page.request.get(path);
      expect(response.status(), path).toBe(403);
      expect(await response.json()).toEqual({ message: messages.session.forbidden });
    }
  });

  test('the sidebar reaches every page, names it in the top bar and can be minimised', async ({
    page,
    signInAs,
  }) => {
    // Server Logs are the instance's: a system administrator's page.
    await signInAs('full access', { system_administrator: true });
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    const pages = [
      ...staffPages,
      { link: 'Admin Users', path: '/adminusers', heading: 'Admin Users' },
      { link: 'Server Logs', path: '/serverlogs', heading: 'Server Logs' },
    ];
    for (const target of pages) {
      await menu.getByRole('link', { name: target.link }).click();
      await expect(page).toHaveURL(new RegExp(`${target.path}$`));
      await expect(page.getByRole('heading', { level: 1, name: target.heading })).toBeVisible();
      await expect(page.getByRole('banner')).toContainText(target.link);
      await expect(menu.getByRole('link', { name: target.link })).toHaveAttribute('aria-current', 'page');
      await expectAccessible(page, target.path);
    }
    await expect(page.getByRole('contentinfo').getByRole('link', { name: /NHS website/ })).toHaveAttribute(
      'href',
      'https://www.nhs.uk',
    );

    await menu.getByRole('button', { name: 'Minimise menu' }).click();
    await expect(menu.getByText('Participants', { exact: true })).not.toBeInViewport();
    await expect(menu.getByRole('link', { name: 'Participants' })).toBeVisible();
    await expectAccessible(page, 'minimised sidebar');
    await menu.getByRole('link', { name: 'Participants' }).click();
    await expect(page).toHaveURL(/\/participants$/);
    await menu.getByRole('button', { name: 'Expand menu' }).click();
    await expect(menu.getByText('Participants', { exact: true })).toBeInViewport();

    await page.goto('/no-such-page');
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  });

  test('a page whose code fails to load offers a reload', async ({ page, signInAs }) => {
    // Before signing in: the console fetches the menu's pages ahead while idle, so a route set
    // later could find the page's code already loaded.
    await page.route(/\/assets\/ServerLogsPage-[^/]+\.js$/, (route) => route.abort());
    await signInAs('full access', { system_administrator: true });
    await page.getByRole('link', { name: 'Server Logs' }).click();
    // Another alert (the daily check's banner) may share the page.
    await expect(page.getByRole('alert').filter({ hasText: 'This page could not be loaded' })).toBeVisible();
    await expectAccessible(page, 'page load failure');

    await page.unrouteAll();
    await page.getByRole('button', { name: 'Reload' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Server Logs' })).toBeVisible();
  });
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the menu is a drawer with a Welcome header, and its Logout leads to sign-in', async ({
    page,
    signInAs,
  }) => {
    await signInAs('basic access');
    await expect(page.getByRole('navigation', { name: 'Main menu' })).toHaveCount(0);
    await expectAccessible(page, 'dashboard on a phone');

    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    await expect(menu.getByText('Welcome')).toBeVisible();
    await expectAccessible(page, 'mobile menu');
    await menu.getByRole('link', { name: 'Participants' }).click();
    await expect(page).toHaveURL(/\/participants$/);
    await expect(menu).toBeHidden();

    await page.getByRole('button', { name: 'Open menu' }).click();
    await menu.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect((await page.request.get('/api/session')).status()).toBe(401);
  });
});
