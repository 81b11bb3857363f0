import { readFile } from 'node:fs/promises';
import { expect, expectAccessible, test } from './fixtures';

// The server logs are the instance's: a system administrator reads them.
test.describe('server logs', () => {
  test('views a log in a 600x500 popup window', async ({ page, signInAs }) => {
    await signInAs('full access', { system_administrator: true });
    await page.getByRole('link', { name: 'Server Logs' }).click();
    const table = page.getByRole('table', { name: 'Server log files' });
    await expect(table.getByRole('columnheader', { name: 'Log Created Date' })).toBeVisible();
    await expect(page.getByText('Log files are kept for 90 days, then removed.')).toBeVisible();
    await expectAccessible(page, 'server logs');

    const fileName = (await table.getByRole('cell').first().innerText()).trim();
    expect(fileName).toMatch(/^pathway-\d{4}-\d{2}-\d{2}\.log$/);

    // Record how the window is asked for: Playwright gives every page of a context its viewport.
    await page.evaluate(() => {
      const open = window.open.bind(window);
      const calls: unknown[][] = [];
      Object.assign(window, { openCalls: calls });
      window.open = (...args: Parameters<typeof window.open>) => {
        calls.push(args);
        return open(...args);
      };
    });
    const popupOpened = page.waitForEvent('popup');
    await table.getByRole('button', { name: `View Log ${fileName}` }).click();
    const popup = await popupOpened;

    await expect(popup.getByRole('heading', { level: 1, name: fileName })).toBeVisible();
    await expect(popup.getByText('request completed').first()).toBeVisible();
    await expect(popup).toHaveTitle(new RegExp(fileName));
    await expectAccessible(popup, 'log viewer popup');
    await popup.getByLabel('Raw lines').check();
    await expect(popup.getByText('"msg":"request completed"').first()).toBeVisible();
    const calls = await page.evaluate(() => (window as unknown as { openCalls: string[][] }).openCalls);
    expect(calls).toHaveLength(1);
    expect(calls[0]![0]).toBe(`/serverlogs/view/${fileName}`);
    expect(calls[0]![2]).toMatch(/width=600,height=500/);
    await popup.close();
  });

  test('downloads a log under its file name', async ({ page, signInAs, adminApi }) => {
    await signInAs('full access', { system_administrator: true });
    await page.goto('/serverlogs');
    const table = page.getByRole('table', { name: 'Server log files' });
    const fileName = (await table.getByRole('cell').first().innerText()).trim();

    const downloaded = page.waitForEvent('download');
    await table.getByRole('button', { name: `Download Log ${fileName}` }).click();
    const download = await downloaded;
    expect(download.suggestedFilename()).toBe(fileName);
    const content = await readFile(await download.path(), 'utf8');
    expect(content).toContain('Pathway is ready on');
    // The log only grows: what was downloaded is the start of what the server holds now.
    const now = await (await adminApi.get(`/api/logs/download/${fileName}`)).text();
    expect(now.startsWith(content)).toBe(true);
  });
});
