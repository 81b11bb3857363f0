import { expect, expectAccessible, test } from './fixtures';

test.describe('dashboard', () => {
  test('shows the three cards and the chart, and Active participants opens the list', async ({
    page,
    signInAs,
  }) => {
    await signInAs('basic access');
    const programme = page.getByRole('region', { name: 'Programme' });
    for (const card of ['Active participants', 'Yesterday viewed videos', 'Average videos per day']) {
      await expect(programme.getByRole('heading', { name: card })).toBeVisible();
    }
    await expect(page.getByRole('heading', { name: 'Watched videos in the last 7 days' })).toBeVisible();
    await expectAccessible(page, 'dashboard');

    await programme.getByRole('link', { name: /Active participants/ }).click();
    await expect(page).toHaveURL(/\/participants$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Participants' })).toBeVisible();
  });
});
