import { readFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { strFromU8, unzipSync } from 'fflate';
import { retentionRule } from '@pathway/contract';
import { expect, expectAccessible, test } from './fixtures';
import { participantRow, searchParticipants } from './participant-grid';
import { addParticipant } from './register-data';

// Issue 32 in the browser: discharge a participant and give their tablet to someone else; the
// subject access download; the records due for review screen. axe on every screen and modal.

async function openDetails(page: Page, participantId: number, status?: string): Promise<Locator> {
  await page.goto(status ? `/participants?status=${status}` : '/participants');
  await searchParticipants(page, String(participantId));
  const row = participantRow(page, participantId);
  await expect(row).toBeVisible();
  await row.getByRole('menuitem', { name: `View details of participant ${participantId}` }).click();
  const details = page.getByRole('dialog', { name: `Participant ${participantId}` });
  await expect(details).toBeVisible();
  return details;
}

test.describe('a participant’s life', () => {
  test('discharges a participant, then gives their tablet to someone else', async ({
    page,
    adminApi,
    signInAs,
  }) => {
    const leaving = await addParticipant(adminApi);
    const next = await addParticipant(adminApi);
    await signInAs('full access');

    const details = await openDetails(page, leaving.participant.participant_id);
    await details.getByRole('button', { name: 'Discharge' }).click();
    const discharge = page.getByRole('dialog', { name: /^Discharge participant/ });
    await discharge.getByLabel('Withdrawn').check();
    await discharge.getByRole('button', { name: 'Discharge' }).click();
    // A withdrawal needs its reason: said, nothing sent.
    await expect(discharge).toContainText('Please choose why the participant withdrew');
    await discharge.getByRole('combobox', { name: /^Reason/ }).click();
    await page.getByRole('option', { name: 'Moved away' }).click();
    await discharge.getByLabel('Note (optional)').fill('Moved to Cornwall');
    await expectAccessible(page, 'discharge participant');
    await discharge.getByRole('button', { name: 'Discharge' }).click();
    await expect(discharge).toHaveCount(0);
    await expect(details).toContainText('Withdrawn, discharged on');
    await expect(details).toContainText('Moved away');
    await expect(details).toContainText('read-only');
    await expect(details.getByRole('button', { name: 'Change device' })).toHaveCount(0);
    await expect(details.getByRole('button', { name: 'Re-refer' })).toBeVisible();
    await expectAccessible(page, 'discharged participant details');
    await details.getByRole('button', { name: 'Close' }).click();

    const stored = await (
      await adminApi.get(`/api/participant/${leaving.participant.participant_id}`)
    ).json();
    expect(stored).toMatchObject({
      status: 'withdrawn',
      discharge_reason: 'moved_away',
      unique_device_id: 'empty',
    });
    // The tablet answers as an unassigned device.
    expect((await adminApi.get(`/uuid/${leaving.device.uuid}`)).status()).toBe(404);

    // Not in the default (active) list; found under Withdrawn, with only the details and delete actions.
    await page.goto('/participants');
    await searchParticipants(page, String(leaving.participant.participant_id));
    await expect(participantRow(page, leaving.participant.participant_id)).toHaveCount(0);
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Withdrawn' }).click();
    await expect(page).toHaveURL(/status=withdrawn/);
    // A fresh page: the search box still holds the same text, which would ask for nothing new.
    await page.goto('/participants?status=withdrawn');
    await searchParticipants(page, String(leaving.participant.participant_id));
    const row = participantRow(page, leaving.participant.participant_id);
    await expect(row).toContainText('Withdrawn');
    await expectAccessible(page, 'participants, withdrawn');

    // Their tablet goes to the next participant.
    const nextDetails = await openDetails(page, next.participant.participant_id);
    await nextDetails.getByRole('button', { name: 'Change device' }).click();
    const detach = page.getByRole('dialog', { name: 'Detach device' });
    await detach.getByRole('button', { name: 'Detach' }).click();
    const choose = page.getByRole('dialog', { name: 'Choose a device' });
    await choose.getByRole('combobox', { name: /^Device/ }).fill(leaving.device.uuid);
    await page.getByRole('option', { name: `${leaving.device.name} - ${leaving.device.uuid}` }).click();
    await choose.getByRole('button', { name: 'Assign device' }).click();
    await expect(choose).toHaveCount(0);
    await expect(nextDetails).toContainText(`${leaving.device.name} - ${leaving.device.uuid}`);
    const nextStored = await (
      await adminApi.get(`/api/participant/${next.participant.participant_id}`)
    ).json();
    expect(nextStored).toMatchObject({ unique_device_id: leaving.device.uuid });
  });

  test('downloads everything held about a participant as one ZIP', async ({ page, adminApi, signInAs }) => {
    const { participant } = await addParticipant(adminApi, { notes: 'Prefers mornings' });
    await signInAs('full access');
    const details = await openDetails(page, participant.participant_id);
    await expectAccessible(page, 'participant details with participation actions');
    const downloading = page.waitForEvent('download');
    await details.getByRole('button', { name: 'Download everything held' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(
      new RegExp(`^pathway-participant-${participant.participant_id}-record-`),
    );
    const files = unzipSync(new Uint8Array(readFileSync(await download.path())));
    expect(Object.keys(files)).toEqual(expect.arrayContaining(['summary.html', 'data/participants.json']));
    const summary = strFromU8(files['summary.html']!);
    expect(summary).toContain(participant.last_name);
    expect(summary).toContain('Prefers mornings');
    const rows = JSON.parse(strFromU8(files['data/participants.json']!)) as { participant_id: number }[];
    expect(rows.map((r) => r.participant_id)).toEqual([participant.participant_id]);
  });

  test('the records due for review screen states the retention rule', async ({ page, signInAs }) => {
    await signInAs('full access');
    await page.getByRole('link', { name: 'Records review' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Records due for review' })).toBeVisible();
    await expect(page.getByText(retentionRule(8))).toBeVisible();
    await expectAccessible(page, 'records due for review');
  });

  test('basic access has no records screen and no participation actions', async ({
    page,
    adminApi,
    signInAs,
  }) => {
    const { participant } = await addParticipant(adminApi);
    await signInAs('basic access');
    await expect(page.getByRole('link', { name: 'Records review' })).toHaveCount(0);
    const details = await openDetails(page, participant.participant_id);
    await expect(details.getByRole('button', { name: 'Discharge' })).toHaveCount(0);
    await expect(details.getByRole('button', { name: 'Download everything held' })).toHaveCount(0);
  });
});
