import { messages } from '@pathway/contract';
import { expect, expectAccessible, test } from './fixtures';
import { addDevice, addParticipant, newUuid, uniqueWord } from './register-data';

const dm = messages.device;

test.describe('authorised devices', () => {
  test('adds, edits and deletes a device, with the form rules and the server refusals', async ({
    page,
    adminApi,
    signInAs,
  }) => {
    const existing = await addDevice(adminApi);
    await signInAs('basic access');
    await page.getByRole('link', { name: 'Authorised devices' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Authorised mobile devices' })).toBeVisible();
    const table = page.getByRole('table', { name: 'Authorised mobile devices' });
    for (const column of ['Database ID / Assigned to', 'Identifiable Name', 'Device Unique ID', 'Actions']) {
      await expect(table.getByRole('columnheader', { name: column })).toBeVisible();
    }
    await expectAccessible(page, 'authorised devices');

    await page.getByRole('button', { name: 'Add Mobile Device' }).click();
    const add = page.getByRole('dialog', { name: 'Add mobile device' });
    await add.getByRole('button', { name: 'Save' }).click();
    await expect(add.getByText(dm.nameEmpty)).toBeVisible();
    await expect(add.getByText(dm.uuidEmpty)).toBeVisible();
    await expectAccessible(page, 'add device with errors');
    await add.getByLabel(/^Identifiable name/).fill('A');
    await add.getByRole('button', { name: 'Save' }).click();
    await expect(add.getByText(dm.nameShort)).toBeVisible();

    // A uuid already in use: the server's refusal in a Warning box.
    const name = uniqueWord('Tablet ');
    await add.getByLabel(/^Identifiable name/).fill(name);
    await add.getByLabel(/^Universally unique identifier/).fill(existing.uuid.toUpperCase());
    await add.getByRole('button', { name: 'Save' }).click();
    await expect(add.getByRole('alert').filter({ hasText: messages.generic.warningTitle })).toContainText(
      dm.uuidTaken,
    );
    await expectAccessible(page, 'add device with a warning');

    const uuid = newUuid();
    await add.getByLabel(/^Universally unique identifier/).fill(uuid.toUpperCase());
    await add.getByRole('button', { name: 'Save' }).click();
    await expect(add).toHaveCount(0);
    const row = table.getByRole('row').filter({ hasText: name });
    await expect(row).toContainText(uuid);
    await expect(row).toContainText('Unassigned');

    await row.getByRole('button', { name: `Edit ${name}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit mobile device' });
    await expect(edit.getByLabel(/^Identifiable name/)).toHaveValue(name);
    await expectAccessible(page, 'edit device');
    const renamed = `${name} renamed`;
    await edit.getByLabel(/^Identifiable name/).fill(renamed);
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit).toHaveCount(0);
    const renamedRow = table.getByRole('row').filter({ hasText: renamed });
    await expect(renamedRow).toBeVisible();

    await renamedRow.getByRole('button', { name: `Delete ${renamed}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete mobile device' });
    await expectAccessible(page, 'delete device');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(confirm).toHaveCount(0);
    await expect(table.getByRole('row').filter({ hasText: renamed })).toHaveCount(0);
  });

  test('shows full access who holds a device by name, and an assigned device cannot be deleted', async ({
    page,
    adminApi,
    signInAs,
  }) => {
    const { participant, device } = await addParticipant(adminApi, { first_name: 'Holder' });
    await signInAs('full access');
    await page.goto('/authoriseddevices');
    const row = page
      .getByRole('table', { name: 'Authorised mobile devices' })
      .getByRole('row')
      .filter({ hasText: device.uuid });
    await expect(row).toContainText(`Assigned to Holder ${participant.last_name}`);
    await expect(row.getByRole('button', { name: `Delete ${device.name}` })).toBeDisabled();
    // The sign-in records below the devices say how long they are kept (as long as the audit trail).
    await expect(
      page
        .getByRole('region', { name: 'Device sign-ins' })
        .getByText('Records are kept for 2,920 days (8 years), then removed.'),
    ).toBeVisible();
  });

  test('shows basic access only which participant holds a device', async ({ page, adminApi, signInAs }) => {
    const { participant, device } = await addParticipant(adminApi, { first_name: 'Hidden' });
    await signInAs('basic access');
    await page.goto('/authoriseddevices');
    const row = page
      .getByRole('table', { name: 'Authorised mobile devices' })
      .getByRole('row')
      .filter({ hasText: `…${device.uuid.slice(-4)}` });
    await expect(row).toContainText(`Assigned to participant ${participant.participant_id}`);
    // The whole uuid of an assigned device is full access only: with it, call 1 names the participant.
    await expect(page.getByText(device.uuid)).toHaveCount(0);
    await expect(page.getByText('Hidden')).toHaveCount(0);
    await expect(page.getByText(participant.last_name)).toHaveCount(0);
  });
});
