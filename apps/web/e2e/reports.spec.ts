import { readFile } from 'node:fs/promises';
import { expect, expectAccessible, test } from './fixtures';

test.describe('reports', () => {
  test('opens from the sidebar, changes period and grouping, exports CSV and XLSX, prints without the sidebar', async ({
    page,
    signInAs,
  }) => {
    await signInAs('basic access');
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Reports' }).click();
    await expect(page).toHaveURL(/\/reports$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();
    for (const title of [
      'Referrals',
      'Flow',
      'Adherence over time',
      'Where people stop',
      'Videos',
      'Views per day',
    ]) {
      await expect(page.getByRole('heading', { level: 2, name: title, exact: true })).toBeVisible();
    }
    await expect(page.getByRole('heading', { name: 'Views', exact: true })).toBeVisible();
    await expectAccessible(page, 'reports');

    // A chart far below the window is drawn only when scrolled near (an empty box of its size stands
    // in), and every chart is drawn for paper.
    const viewsSection = page.locator('section[aria-labelledby="report-views"]');
    const pending = page.locator('.reports-chart-pending');
    await expect(viewsSection.locator('.reports-chart-pending')).toHaveCount(1);
    await expect(viewsSection.locator('.reports-chart svg')).toHaveCount(0);
    await page
      .getByRole('heading', { level: 2, name: 'Views per day', exact: true })
      .scrollIntoViewIfNeeded();
    await expect(viewsSection.locator('.reports-chart-pending')).toHaveCount(0);
    await expect(viewsSection.locator('.reports-chart svg').first()).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { level: 2, name: 'Views per day', exact: true })).toBeVisible();
    await expect(viewsSection.locator('.reports-chart-pending')).toHaveCount(1);
    await page.emulateMedia({ media: 'print' });
    await expect(pending).toHaveCount(0);
    await expect(viewsSection.locator('.reports-chart svg').first()).toBeAttached();
    await page.emulateMedia({ media: 'screen' });

    // A period across the year end, by ISO week: the views table starts with 2026-W01 on 29 December.
    const period = page.getByRole('form', { name: 'Period' });
    await period.getByLabel('From').fill('2025-12-29');
    await period.getByLabel('To').fill('2026-01-11');
    await period.getByRole('combobox', { name: 'Group by' }).click();
    await page.getByRole('option', { name: 'ISO week' }).click();
    await period.getByRole('button', { name: 'Show' }).click();
    await expect(
      page.getByText('Aggregate figures for 29 December 2025 to 11 January 2026, by ISO week.'),
    ).toBeVisible();
    const views = page.getByRole('table', { name: 'Views', exact: true });
    await expect(views.getByRole('row').nth(1).getByRole('cell').first()).toHaveText('2026-W01');
    await expect(views.getByRole('row').nth(2).getByRole('cell').first()).toHaveText('2026-W02');
    await expectAccessible(page, 'reports by week');

    // A period the server would refuse is caught before it is asked.
    await period.getByLabel('From').fill('2022-01-01');
    await expect(page.getByText('The period is longer than 3 years; choose a shorter one.')).toBeVisible();
    await expect(period.getByRole('button', { name: 'Show' })).toBeDisabled();
    await period.getByLabel('From').fill('2025-12-29');

    // CSV of one table, with suppression on: the participant export's conventions.
    await period.getByLabel(/Suppress counts under 5/).check();
    const csvDownload = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download Views as CSV' }).click();
    const csv = await csvDownload;
    expect(csv.suggestedFilename()).toBe('views-2025-12-29-to-2026-01-11.csv');
    const text = await readFile(await csv.path(), 'utf8');
    expect(text.startsWith('\uFEFFPeriod,Starts on,Views\r\n2026-W01,2025-12-29,')).toBe(true);
    expect(text.split('\r\n')).toHaveLength(4);

    // The whole workbook.
    const xlsxDownload = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export XLSX' }).click();
    const xlsx = await xlsxDownload;
    expect(xlsx.suggestedFilename()).toBe('pathway-reports-2025-12-29-to-2026-01-11.xlsx');
    const bytes = await readFile(await xlsx.path());
    expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');

    // Print preview: the reports without the console's sidebar, top bar or buttons.
    await page.emulateMedia({ media: 'print' });
    await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeHidden();
    await expect(page.getByRole('button', { name: 'Export XLSX' })).toBeHidden();
    await expect(page.getByRole('heading', { level: 2, name: 'Referrals', exact: true })).toBeVisible();
    await page.emulateMedia({ media: 'screen' });
    await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeVisible();
  });
});
