import type { Page } from '@playwright/test';
import { expect, expectAccessible, test } from './fixtures';
import { participantRow, searchParticipants } from './participant-grid';
import { addParticipant, addVideoSetThroughApi, enrol } from './register-data';

// Outcomes in the browser: a participant due a baseline on the Follow-up worklist, the six-minute
// walk recorded from the row, the end result from the Outcomes tab (a value in the wrong unit
// caught), and the change on the Reports page; the catalogue and a set's schedule. axe on every
// screen and modal, at 1366 px and at phone width.

const LAPTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };

/** axe on the page as it is, at a laptop's width and at a phone's. */
async function accessibleAtBothWidths(page: Page, label: string) {
  await page.setViewportSize(PHONE);
  await expectAccessible(page, `${label} (phone)`);
  await page.setViewportSize(LAPTOP);
  await expectAccessible(page, `${label} (1366 px)`);
}

test.describe('outcomes', () => {
  test('a participant due a baseline is on Follow-up; the walk from the row, the end from the Outcomes tab; the report shows the change', async ({
    page,
    adminApi,
    signInAs,
  }) => {
    // A two-week programme: the baseline is due from today, the end from the second week.
    const set = await addVideoSetThroughApi(adminApi, 2, 1);
    const schedule = await adminApi.put(`/api/videoset/${set.fitness_video_set_id}/assessments`, {
      data: {
        timepoints: [
          { timepoint: 'baseline', measures: ['6MWD'] },
          { timepoint: 'end', measures: ['6MWD'] },
        ],
      },
    });
    expect(schedule.status(), await schedule.text()).toBe(200);
    const { participant } = await addParticipant(adminApi);
    const id = participant.participant_id;
    await enrol(adminApi, id, set.fitness_video_set_id);

    await page.setViewportSize(LAPTOP);
    await signInAs('full access');
    await page.goto('/followup?reason=assessment_due');
    const row = page.locator(`tr[data-participant="${id}"]`);
    await expect(row.locator('[data-reason="assessment_due"]')).toHaveText('Assessment due');
    await accessibleAtBothWidths(page, 'follow-up, assessment due');

    // From the row: the dialog names whom it is about and starts on the assessment due.
    await row.getByRole('button', { name: /^Record a result for / }).click();
    const record = page.getByRole('dialog', { name: /^Record a result: / });
    await expect(record.getByRole('combobox', { name: 'Measure' })).toHaveText(/Six-minute walk distance/);
    await expect(record.getByRole('combobox', { name: 'Timepoint' })).toHaveText('Baseline');
    const walk = record.getByRole('textbox', { name: 'Six-minute walk distance (metres)' });
    await walk.fill('300');
    await accessibleAtBothWidths(page, 'record a result');
    await record.getByRole('button', { name: 'Record result' }).click();
    await expect(record).toHaveCount(0);
    // Recorded: nothing else is due this week, so they leave the list.
    await expect(row).toHaveCount(0);

    // Later, the end result from the participant's Outcomes tab.
    await page.goto('/participants');
    await searchParticipants(page, String(id));
    await participantRow(page, id)
      .getByRole('menuitem', { name: `View details of participant ${id}` })
      .click();
    const details = page.getByRole('dialog', { name: `Participant ${id}` });
    await details.getByRole('tab', { name: 'Outcomes' }).click();
    const due = details.getByRole('table', { name: 'Assessments of the schedule' });
    await expect(due.locator('[data-due="baseline:6MWD"]')).toContainText('Recorded');
    await expect(due.locator('[data-due="end:6MWD"]')).toContainText('Upcoming');
    await accessibleAtBothWidths(page, 'outcomes tab');
    await details.getByRole('button', { name: 'Record a result' }).click();
    const end = page.getByRole('dialog', { name: /^Record a result: / });
    await end.getByRole('combobox', { name: 'Timepoint' }).click();
    await page.getByRole('option', { name: 'End of programme' }).click();
    await end.getByRole('combobox', { name: 'Measure' }).click();
    await page.getByRole('option', { name: 'Six-minute walk distance (metres)' }).click();
    // 345 m typed in feet: far from the baseline, so the form asks before sending it.
    await end.getByRole('textbox', { name: 'Six-minute walk distance (metres)' }).fill('984');
    await end.getByRole('button', { name: 'Record result' }).click();
    await expect(end.getByRole('alert')).toContainText("328% of the participant's baseline (300 metres)");
    await expect(end.getByRole('button', { name: 'Record anyway' })).toBeVisible();
    await accessibleAtBothWidths(page, 'record a result, value far from the baseline');
    await end.getByRole('textbox', { name: 'Six-minute walk distance (metres)' }).fill('345');
    await end.getByRole('button', { name: 'Record result' }).click();
    await expect(end).toHaveCount(0);
    const results = details.getByRole('table', { name: 'Results against the baseline, newest first' });
    const endRow = results.locator('[data-result="end:6MWD"]');
    await expect(endRow).toContainText('345 metres');
    await expect(endRow).toContainText('300 metres');
    await expect(endRow).toContainText('+45');
    await expect(endRow).toContainText('Improved by at least the MCID');
    await accessibleAtBothWidths(page, 'outcomes tab with the change');
    await details.getByRole('button', { name: 'Close' }).click();

    // Discharged as completed: the Reports page's outcomes show the pair and its change.
    const discharged = await adminApi.post(`/api/participant/${id}/discharge`, {
      data: { outcome: 'completed' },
    });
    expect(discharged.status(), await discharged.text()).toBe(200);
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Reports' }).click();
    const outcomes = page.getByRole('region', { name: 'Outcomes' });
    await expect(outcomes.getByRole('combobox', { name: 'Measure' })).toHaveText('Six-minute walk distance');
    const table = outcomes.getByRole('table', {
      name: 'Outcomes of participants who completed in the period (baseline and end of programme)',
    });
    // Completeness first: how many completers have both results, and that the figures are of them alone.
    await expect(outcomes).toContainText(/Participants discharged as completed in the period: \d+\./);
    await expect(outcomes).toContainText('the figures below are of them alone');
    const cells = table.getByRole('row').nth(1).getByRole('cell');
    await expect(cells.nth(0)).toHaveText('Six-minute walk distance');
    // Median change: 45 metres is the change of every pair this run has (the only one with results).
    await expect(cells.nth(15)).toHaveText('45');
    await accessibleAtBothWidths(page, 'reports with outcomes');
  });

  test('full access keeps the catalogue and a set’s schedule', async ({ page, adminApi, signInAs }) => {
    const set = await addVideoSetThroughApi(adminApi, 4, 1);
    await page.setViewportSize(LAPTOP);
    await signInAs('full access');
    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: 'Outcome measures' })
      .click();
    const catalogue = page.getByRole('table', { name: 'Outcome measures' });
    await expect(catalogue.locator('[data-measure="6MWD"]')).toContainText('Perera');
    await expect(catalogue.locator('[data-measure="GAD-7"]')).toContainText('No permission is required');
    await accessibleAtBothWidths(page, 'outcome measures');

    const code = `GRIP${Date.now().toString(36).slice(-5).toUpperCase()}`;
    await page.getByRole('button', { name: 'Add a measure' }).click();
    const add = page.getByRole('dialog', { name: 'Add a measure' });
    await add.getByRole('textbox', { name: 'Code', exact: true }).fill(code);
    await add.getByRole('textbox', { name: 'Name', exact: true }).fill(`Grip strength ${code}`);
    await add.getByRole('combobox', { name: 'Unit' }).click();
    await page.getByRole('option', { name: 'kilograms (kg)' }).click();
    await add.getByLabel('Smallest plausible value').fill('80');
    await add.getByLabel('Largest plausible value').fill('5');
    await accessibleAtBothWidths(page, 'add a measure');
    await add.getByRole('button', { name: 'Save' }).click();
    // The server's check, said in the dialog; nothing saved.
    await expect(add).toContainText('The smallest plausible value must not be above the largest');
    await add.getByLabel('Smallest plausible value').fill('5');
    await add.getByLabel('Largest plausible value').fill('80');
    await add.getByLabel('MCID (optional)').fill('6.5');
    await add.getByRole('button', { name: 'Save' }).click();
    await expect(add).toHaveCount(0);
    await expect(catalogue.locator(`[data-measure="${code}"]`)).toContainText('kilograms');

    // The set's schedule, from the video sets page.
    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: 'Video Sets' })
      .click();
    await page.getByRole('link', { name: `Assessments of ${set.set_name}` }).click();
    await expect(page.getByRole('heading', { level: 1, name: `Assessments: ${set.set_name}` })).toBeVisible();
    await page
      .getByRole('group', { name: /^Baseline/ })
      .getByLabel(/Six-minute walk distance/)
      .check();
    await page
      .getByRole('group', { name: /^End/ })
      .getByLabel(/Six-minute walk distance/)
      .check();
    await page
      .getByRole('group', { name: /^End/ })
      .getByLabel(new RegExp(`Grip strength ${code}`))
      .check();
    await accessibleAtBothWidths(page, 'assessment schedule');
    await page.getByRole('button', { name: 'Save the schedule' }).click();
    await expect(page.getByText('Assessment schedule saved')).toBeVisible();
    const saved = await (await adminApi.get(`/api/videoset/${set.fitness_video_set_id}/assessments`)).json();
    expect(saved).toEqual({
      timepoints: [
        { timepoint: 'baseline', measures: ['6MWD'] },
        { timepoint: 'end', measures: ['6MWD', code] },
      ],
    });
  });
});
