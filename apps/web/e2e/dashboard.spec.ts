import { expect, expectAccessible, test } from './fixtures';

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
});
