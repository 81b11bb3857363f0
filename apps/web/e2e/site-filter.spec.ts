import { expect, expectAccessible, test } from './fixtures';
import { addOrganisationWithTwoSites, signInElsewhere } from './organisations';
import { participantGrid, participantRow } from './participant-grid';
import { addParticipant, addVideoSetThroughApi, enrol, tabletWithoutPushToken } from './register-data';

/**
 * The site filter: an admin of an organisation's two sites narrows the Participants, Follow-up,
 * Dashboard and Reports pages to one of them (kept in the address), and compares the sites side by
 * side on Reports; an admin of one site sees no selector at all.
 */
test.describe('site filter', () => {
  test('an admin of two sites picks one on every page and compares both; an admin of one site sees no selector', async ({
    page,
    browser,
    adminApi,
    setupAdmin,
    createAdmin,
    signIn,
  }) => {
    await page.setViewportSize({ width: 1366, height: 900 });
    const { organisation, first, second } = await addOrganisationWithTwoSites(adminApi, setupAdmin);
    const lead = await createAdmin('full access', { organisation_id: organisation.organisation_id });
    const limited = await createAdmin('full access', {
      organisation_id: organisation.organisation_id,
      site_ids: [first.site_id],
    });

    // One participant at each site, each on the worklist: a tablet that never registered for reminders.
    await signIn(lead);
    const set = await addVideoSetThroughApi(page.request, 1, 1);
    const people = [];
    for (const site of [first, second]) {
      const { participant, device } = await addParticipant(page.request, { site_id: site.site_id });
      await enrol(page.request, participant.participant_id, set.fitness_video_set_id);
      await tabletWithoutPushToken(
        page.request,
        device,
        participant.participant_id,
        set.fitness_video_set_id,
      );
      people.push(participant);
    }
    const [atFirst, atSecond] = people as [(typeof people)[0], (typeof people)[0]];
    const siteAddress = new RegExp(`[?&]site=${second.site_id}(&|$)`);

    // Participants: every site, then the second alone, in the address and after a reload.
    await page.goto('/participants');
    const siteSelect = page.getByRole('combobox', { name: /^Site/ });
    await expect(siteSelect).toHaveText('Every site');
    await expect(participantRow(page, atFirst.participant_id)).toBeVisible();
    await expect(participantRow(page, atSecond.participant_id)).toBeVisible();
    await siteSelect.click();
    await expectAccessible(page, 'site selector open');
    await page.getByRole('option', { name: second.name }).click();
    await expect(page).toHaveURL(siteAddress);
    await expect(participantRow(page, atSecond.participant_id)).toBeVisible();
    await expect(participantRow(page, atFirst.participant_id)).toHaveCount(0);
    await expect(page.getByText(`${second.name} only`)).toBeVisible();
    await expectAccessible(page, 'participants of one site');
    await page.reload();
    await expect(page.getByRole('combobox', { name: /^Site/ })).toHaveText(second.name);
    await expect(participantRow(page, atSecond.participant_id)).toBeVisible();
    await expect(participantRow(page, atFirst.participant_id)).toHaveCount(0);
    await expect(participantGrid(page).getByRole('row')).toHaveCount(2);

    // Follow-up: the same site (the menu keeps no site; the address does), and says so.
    await page.goto(`/followup?site=${second.site_id}`);
    const worklist = page.getByRole('table', { name: 'Follow-up worklist' });
    await expect(worklist.locator(`[data-participant="${atSecond.participant_id}"]`)).toBeVisible();
    await expect(worklist.locator(`[data-participant="${atFirst.participant_id}"]`)).toHaveCount(0);
    await expect(page.getByText(`Showing ${second.name} only`)).toBeVisible();
    await expectAccessible(page, 'follow-up of one site');
    await page.getByRole('button', { name: 'Show every site' }).click();
    await expect(page).not.toHaveURL(/[?&]site=/);
    await expect(worklist.locator(`[data-participant="${atFirst.participant_id}"]`)).toBeVisible();
    await expect(worklist.locator(`[data-participant="${atSecond.participant_id}"]`)).toBeVisible();

    // Dashboard: the figures of one site, and its links keep the site.
    await page.goto(`/dashboard?site=${second.site_id}`);
    const total = page
      .getByRole('region', { name: 'Programme' })
      .getByRole('link', { name: /Total participants/ });
    await expect(total).toContainText(/Total participants\s*1(?!\d)/);
    await expect(page.getByRole('region', { name: 'Needs follow-up' })).toContainText(
      /Needs follow-up\s*1(?!\d)/,
    );
    await expect(page.getByText(`Showing ${second.name} only`)).toBeVisible();
    await expectAccessible(page, 'dashboard of one site');
    await page.getByRole('combobox', { name: /^Site/ }).click();
    await page.getByRole('option', { name: 'Every site' }).click();
    await expect(total).toContainText(/Total participants\s*2(?!\d)/);
    await page.getByRole('combobox', { name: /^Site/ }).click();
    await page.getByRole('option', { name: second.name }).click();
    await total.click();
    await expect(page).toHaveURL(siteAddress);
    await expect(participantRow(page, atFirst.participant_id)).toHaveCount(0);

    // Reports: both sites side by side, from the keyboard.
    await page.goto('/reports');
    const compare = page.getByRole('switch', { name: 'Compare sites side by side' });
    await compare.focus();
    await page.keyboard.press('Space');
    await expect(compare).toBeChecked();
    await expect(page).toHaveURL(/[?&]compare=sites/);
    const sideBySide = page.getByRole('table', { name: 'Sites side by side' });
    // The sites in the session's order, by name.
    const byName = [first, second].sort((a, b) => (a.name < b.name ? -1 : 1)).map((site) => site.name);
    await expect(sideBySide.getByRole('columnheader')).toHaveText(['Figure', ...byName]);
    await expect(sideBySide.getByRole('row', { name: /^Referred/ }).getByRole('cell')).toHaveText(['1', '1']);
    await expectAccessible(page, 'reports comparing sites');
    // On a phone, from the shared address: the table scrolls within its box, not the page sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect(sideBySide.getByRole('row', { name: /^Referred/ }).getByRole('cell')).toHaveText(['1', '1']);
    await sideBySide.scrollIntoViewIfNeeded();
    await expect(sideBySide.getByRole('rowheader', { name: /^Referred/ })).toBeInViewport();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await expectAccessible(page, 'reports comparing sites at phone width');
    await page.setViewportSize({ width: 1366, height: 900 });

    // An admin of the first site alone: no selector, their site's participants only, whatever the address says.
    const theirs = await signInElsewhere(browser, limited);
    try {
      await theirs.goto(`/participants?site=${second.site_id}`);
      await expect(participantRow(theirs, atFirst.participant_id)).toBeVisible();
      await expect(participantRow(theirs, atSecond.participant_id)).toHaveCount(0);
      await expect(theirs.getByRole('combobox', { name: /^Site/ })).toHaveCount(0);
      await theirs.goto('/reports');
      await expect(theirs.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();
      await expect(theirs.getByRole('switch', { name: 'Compare sites side by side' })).toHaveCount(0);
      await expect(theirs.getByRole('combobox', { name: /^Site/ })).toHaveCount(0);
      await expectAccessible(theirs, 'reports of an admin of one site');
    } finally {
      await theirs.context().close();
    }
  });
});
