import type { Page } from '@playwright/test';
import { expect, expectAccessible, test } from './fixtures';
import { recordViewToday } from './register-data';

/** The chart's x-axis labels as drawn, beside the chart's box, the viewport and the data table's days. */
async function chartDates(page: Page) {
  return page.evaluate(() => {
    const axis = document.querySelector('.MuiChartsAxis-directionX')!;
    const box = (element: Element) => {
      const { left, right, top, bottom } = element.getBoundingClientRect();
      return { left, right, top, bottom };
    };
    const table = document.querySelector('table caption')!.closest('table')!;
    return {
      chart: box(axis.closest('svg')!),
      viewport: { width: document.documentElement.clientWidth },
      days: [...table.querySelectorAll('tbody tr')].map((row) => row.querySelector('td')!.textContent),
      labels: [...axis.querySelectorAll('.MuiChartsAxis-tickLabel')].map((label) => ({
        text: label.textContent,
        ...box(label),
      })),
    };
  });
}

test.describe('dashboard', () => {
  test('shows the three cards and the chart, and Total participants says what it counts and opens the list', async ({
    page,
    signInAs,
  }) => {
    await signInAs('basic access');
    const programme = page.getByRole('region', { name: 'Programme' });
    for (const card of ['Total participants', 'Yesterday viewed videos', 'Average videos per day']) {
      await expect(programme.getByRole('heading', { name: card })).toBeVisible();
    }
    // The spec's title, and underneath it what the figure counts.
    const total = programme.getByRole('link', { name: /Total participants/ });
    await expect(total).toContainText('Active participants; discharged participants are not counted');
    await expect(page.getByRole('heading', { name: 'Watched videos in the last 7 days' })).toBeVisible();
    await expectAccessible(page, 'dashboard');

    await total.click();
    await expect(page).toHaveURL(/\/participants$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Participants' })).toBeVisible();
  });

  test("every date of the chart is written in full, inside the chart, on a laptop's screen and on a phone", async ({
    page,
    adminApi,
    signInAs,
  }) => {
    await recordViewToday(adminApi);
    await signInAs('basic access');
    for (const size of [
      { width: 1366, height: 768 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(size);
      await page.goto('/dashboard');
      await expect(page.getByRole('heading', { name: 'Watched videos in the last 7 days' })).toBeVisible();
      await expect(page.locator('.MuiChartsAxis-directionX .MuiChartsAxis-tickLabel')).toHaveCount(8);
      const { chart, viewport, days, labels } = await chartDates(page);
      const at = `at ${size.width}px`;
      // Each of the window's eight days has its label, its long date whole (not shortened to "20 Nove…").
      expect(
        labels.map((label) => label.text),
        at,
      ).toEqual(days);
      for (const label of labels) {
        expect(label.left, `${label.text} ${at}`).toBeGreaterThanOrEqual(Math.max(chart.left, 0) - 1);
        expect(label.right, `${label.text} ${at}`).toBeLessThanOrEqual(
          Math.min(chart.right, viewport.width) + 1,
        );
        expect(label.bottom, `${label.text} ${at}`).toBeLessThanOrEqual(chart.bottom + 1);
      }
      await expectAccessible(page, `dashboard chart ${at}`);
    }
  });
});
