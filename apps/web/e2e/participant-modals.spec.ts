import type { Locator, Page } from '@playwright/test';
import { messages } from '@pathway/contract';
import { expect, expectAccessible, test } from './fixtures';
import { participantRow, searchParticipants } from './participant-grid';
import { addDevice, addParticipant } from './register-data';

/**
 * The participant's row. Full access searches their last name, unique to them: their id as the
 * search also matches every phone number holding those digits (every participant here has one), so
 * the row could fall beyond the first page. Basic access's search reads no phone number.
 */
async function openRow(
  page: Page,
  participant: { participant_id: number; last_name: string },
  role: 'full access' | 'basic access' = 'full access',
): Promise<Locator> {
  await page.goto('/participants');
  await searchParticipants(
    page,
    role === 'full access' ? participant.last_name : String(participant.participant_id),
  );
  const row = participantRow(page, participant.participant_id);
  await expect(row).toBeVisible();
  return row;
}

test.describe('participant modals', () => {
  test('details show contact data and, on request, the referral', async ({ page, adminApi, signInAs }) => {
    const { participant } = await addParticipant(adminApi, { notes: 'Prefers mornings' });
    await signInAs('full access');
    const row = await openRow(page, participant);
    await row
      .getByRole('menuitem', { name: `View details of participant ${participant.participant_id}` })
      .click();
    const details = page.getByRole('dialog', { name: `Participant ${participant.participant_id}` });
    await expect(details).toContainText(`Ada ${participant.last_name}`);
    await expect(details).toContainText('12/04/1961');
    await expect(details).toContainText('Prefers mornings');
    await expect(details).not.toContainText('Leeds Community Practice');
    await expectAccessible(page, 'participant details');

    await details.getByRole('button', { name: 'Show Referral' }).click();
    await expect(details).toContainText('Leeds Community Practice');
    await expect(details).toContainText('pad-programme');
    await expectAccessible(page, 'participant details with the referral');
  });

  test('edits a participant and their referral, with the rules of the forms', async ({
    page,
    adminApi,
    signInAs,
  }) => {
    const { participant } = await addParticipant(adminApi);
    await signInAs('full access');
    const row = await openRow(page, participant);

    await row.getByRole('menuitem', { name: `Edit participant ${participant.participant_id}` }).click();
    // Full access: the title names the participant.
    const edit = page.getByRole('dialog', {
      name: `Edit participant — ${participant.first_name} ${participant.last_name}`,
    });
    await expectAccessible(page, 'edit participant');
    await edit.getByLabel(/^Address/).fill('');
    await edit.getByLabel(/^Phone number/).fill('0113 496 0000');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit.getByText(messages.participant.addressEmpty)).toBeVisible();
    await expectAccessible(page, 'edit participant with errors');
    await edit.getByLabel(/^Address/).fill('3 New Street, York');
    const saved = page.waitForResponse((r) => r.request().method() === 'PATCH');
    await edit.getByRole('button', { name: 'Save' }).click();
    // Only what changed is sent; the phone format of the add form does not apply to edits.
    expect((await saved).request().postDataJSON()).toEqual({
      address: '3 New Street, York',
      phone_number: '0113 496 0000',
    });
    await expect(edit).toHaveCount(0);

    await row
      .getByRole('menuitem', { name: `Edit referral of participant ${participant.participant_id}` })
      .click();
    const referral = page.getByRole('dialog', {
      name: `Edit referral — ${participant.first_name} ${participant.last_name}`,
    });
    await expect(referral.getByLabel(/^Referring organisation/)).toHaveValue('Leeds Community Practice');
    await expectAccessible(page, 'edit referral');
    await referral.getByLabel(/^Referring organisation/).fill('');
    await referral.getByRole('button', { name: 'Save' }).click();
    await expect(referral.getByText(messages.referral.organisationEmpty)).toBeVisible();
    await referral.getByLabel(/^Referring organisation/).fill('York Health Centre');
    await referral
      .getByRole('radiogroup', { name: /^Smoker/ })
      .getByLabel('Yes')
      .check();
    await referral.getByRole('button', { name: 'Save' }).click();
    await expect(referral).toHaveCount(0);
    const stored = await (
      await adminApi.get(`/api/participant/${participant.participant_id}/referral`)
    ).json();
    expect(stored).toMatchObject({ referring_organisation: 'York Health Centre', smoker: true });
  });

  test('messages a participant, with the title and body rules', async ({ page, adminApi, signInAs }) => {
    const { participant } = await addParticipant(adminApi);
    await signInAs('basic access');
    const row = await openRow(page, participant, 'basic access');
    await row.getByRole('menuitem', { name: `Message participant ${participant.participant_id}` }).click();
    // Basic access: the title keeps the id, never a name.
    const dialog = page.getByRole('dialog', {
      name: `Message user — participant ${participant.participant_id}`,
    });
    await dialog.getByRole('button', { name: 'Send' }).click();
    await expect(dialog.getByText(messages.message.titleEmpty)).toBeVisible();
    await expect(dialog.getByText(messages.message.bodyEmpty)).toBeVisible();
    await expectAccessible(page, 'message user with errors');
    await dialog.getByLabel(/^Title/).fill('H');
    await dialog.getByLabel(/^Message/).fill('x');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await expect(dialog.getByText(messages.message.titleShort)).toBeVisible();
    await expect(dialog.getByText(messages.message.bodyShort)).toBeVisible();
    await dialog.getByLabel(/^Title/).fill('Well done');
    await dialog.getByLabel(/^Message/).fill('You are doing really well this week.');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByRole('status').filter({ hasText: messages.message.queued })).toBeVisible();
  });

  test('changes the device: detach after confirmation, then choose an available one', async ({
    page,
    adminApi,
    signInAs,
  }) => {
    const { participant, device } = await addParticipant(adminApi);
    const replacement = await addDevice(adminApi);
    // Only full access assigns devices (a basic admin could read a name through the tablet's call 1).
    await signInAs('full access');
    const row = await openRow(page, participant);
    await row
      .getByRole('menuitem', { name: `View details of participant ${participant.participant_id}` })
      .click();
    const details = page.getByRole('dialog', { name: `Participant ${participant.participant_id}` });
    await details.getByRole('button', { name: 'Change device' }).click();

    const change = page.getByRole('dialog', { name: 'Detach device' });
    await expect(change).toContainText(`${device.name} - ${device.uuid}`);
    await expectAccessible(page, 'detach device');
    await change.getByRole('button', { name: 'Detach' }).click();

    const choose = page.getByRole('dialog', { name: 'Choose a device' });
    const box = choose.getByRole('combobox', { name: /^Device/ });
    await box.fill(replacement.uuid);
    await page.getByRole('option', { name: `${replacement.name} - ${replacement.uuid}` }).click();
    await expectAccessible(page, 'choose a device');
    await choose.getByRole('button', { name: 'Assign device' }).click();
    await expect(choose).toHaveCount(0);
    await expect(details).toContainText(`${replacement.name} - ${replacement.uuid}`);

    const stored = await (await adminApi.get(`/api/participant/${participant.participant_id}`)).json();
    expect(stored).toMatchObject({ unique_device_id: replacement.uuid, push_notification_id: 'empty' });
    const available = await (await adminApi.get('/api/authorizeddevices/available')).json();
    expect(available.map((d: { uuid: string }) => d.uuid)).toContain(device.uuid);
  });

  test('deletes a participant; the list reloads without them', async ({ page, adminApi, signInAs }) => {
    const { participant } = await addParticipant(adminApi);
    await signInAs('full access');
    const row = await openRow(page, participant);
    await row.getByRole('menuitem', { name: `Delete participant ${participant.participant_id}` }).click();
    const confirm = page.getByRole('dialog', {
      name: `Delete participant — ${participant.first_name} ${participant.last_name}`,
    });
    await expect(confirm).toContainText(participant.last_name);
    await expectAccessible(page, 'delete participant');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(confirm).toHaveCount(0);
    await expect(row).toHaveCount(0);
    expect((await adminApi.get(`/api/participant/${participant.participant_id}`)).status()).toBe(404);
  });
});
