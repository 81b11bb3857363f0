import { readFile } from 'node:fs/promises';
import { messages } from '@pathway/contract';
import { expect, expectAccessible, test } from './fixtures';
import { addParticipant } from './register-data';

test.describe('audit trail', () => {
  test('lists who viewed and changed identifiable data, and exports it as CSV', async ({
    page,
    adminApi,
    signInAs,
  }) => {
    const { participant } = await addParticipant(adminApi);
    const me = await signInAs('full access');
    await page.goto(`/participants`);
    await page.getByRole('button', { name: 'Search' }).click();
    const searched = page.waitForResponse((r) => r.url().includes(`q=${participant.last_name}`));
    await page.getByRole('searchbox').fill(participant.last_name);
    expect((await searched).status()).toBe(200);
    await expect(page.getByRole('gridcell', { name: participant.last_name })).toBeVisible();

    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: 'Audit trail' })
      .click();
    await expect(page.getByRole('heading', { level: 1, name: 'Audit trail' })).toBeVisible();
    await expect(page.getByText('Records are kept for 2,920 days (8 years), then removed.')).toBeVisible();
    const table = page.getByRole('table', { name: 'Audit trail' });
    for (const column of ['Time', 'Admin', 'Action', 'Participant', 'Detail', 'IP address']) {
      await expect(table.getByRole('columnheader', { name: column })).toBeVisible();
    }
    // The search's read: one row, naming the participant it returned and no search text.
    const mine = table
      .getByRole('row')
      .filter({ hasText: me.user_name })
      .filter({ hasText: 'Viewed participant list' })
      .filter({ hasText: 'search' });
    await expect(mine).toHaveCount(1);
    await expect(mine.getByRole('cell').nth(3)).toHaveText(String(participant.participant_id));
    await expect(mine).toContainText('page 1, 1 row, search, sort participant_id asc');
    await expect(table).not.toContainText(participant.last_name);
    await expectAccessible(page, 'audit trail');

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^audit-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile(await download.path(), 'utf8');
    const [header, ...rows] = csv.trim().split('\r\n');
    expect(header).toBe(
      'audit_event_id,created_at,admin_user_id,admin_user_name,action,participant_id,participant_ids,detail,ip,action_label',
    );
    expect(
      rows.some(
        (r) =>
          r.includes(`,${me.user_name},participant.list,`) && r.includes(String(participant.participant_id)),
      ),
    ).toBe(true);
    expect(
      rows.some((r) => r.includes(',participant.create,') && r.includes(`,${participant.participant_id},`)),
    ).toBe(true);
    expect(csv).not.toContain(participant.last_name);
  });

  test('is for full access only', async ({ page, signInAs }) => {
    await signInAs('basic access');
    await expect(
      page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Audit trail' }),
    ).toHaveCount(0);
    await page.goto('/audit');
    await expect(page.getByRole('heading', { level: 1, name: 'Not allowed' })).toBeVisible();
    const response = await page.request.get('/api/audit');
    expect(response.status()).toBe(403);
    expect(await response.json()).toEqual({ message: messages.session.forbidden });
  });
});
