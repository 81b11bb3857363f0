import { readFile } from 'node:fs/promises';
import type { Locator } from '@playwright/test';
import { IDENTIFIABLE_FIELDS, LANGUAGES, messages } from '@pathway/contract';
import { expect, expectAccessible, test } from './fixtures';
import { participantGrid, participantRow, searchParticipants } from './participant-grid';
import { addDevice, addParticipant, addVideoSetThroughApi, enrol, uniqueWord } from './register-data';

const pm = messages.participant;

function cell(row: Locator, field: string): Locator {
  return row.locator(`[role="gridcell"][data-field="${field}"]`);
}

test.describe('participants', () => {
  test('adds a participant with the date picker and the device dropdown, after the form refuses what is missing', async ({
    page,
    adminApi,
    signInAs,
  }) => {
    await signInAs('full access');
    const device = await addDevice(adminApi);
    const lastName = uniqueWord('Hopper');

    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: 'Participants' })
      .click();
    await page.getByRole('link', { name: 'Add Participant' }).click();
    await expect(page).toHaveURL(/\/addparticipant$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Add participant' })).toBeVisible();
    await expectAccessible(page, 'add participant');

    const form = page.getByRole('form', { name: 'Add participant' });
    await form.getByRole('button', { name: 'Save' }).click();
    for (const message of [
      pm.firstNameEmpty,
      pm.lastNameEmpty,
      pm.dobEmpty,
      pm.phoneEmpty,
      pm.addressEmpty,
      pm.deviceEmpty,
      pm.languageEmpty,
      messages.referral.programmeEmpty,
      messages.referral.organisationEmpty,
      messages.referral.professionalEmpty,
      messages.referral.professionalRoleEmpty,
      messages.referral.contraindicationsEmpty,
    ]) {
      await expect(form.getByText(message, { exact: true })).toBeVisible();
    }
    await expect(form.getByText(messages.referral.selectionEmpty, { exact: true })).toHaveCount(3);
    await expectAccessible(page, 'add participant with errors');

    await form.getByLabel(/^First name/).fill('Grace');
    await form.getByLabel(/^Last name/).fill(lastName);
    await form.getByLabel(/^Phone number/).fill('07700 900123');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByText(pm.phoneFormat)).toBeVisible();
    await form.getByLabel(/^Phone number/).fill('+447700900123');
    await form.getByLabel(/^Email/).fill('grace@example.org');
    await form.getByLabel(/^Address/).fill('2 Harbour Road, Hull');

    // The real date picker: year, then month, then day; shown dd/MM/yyyy.
    await form.getByRole('button', { name: 'Choose date' }).click();
    const picker = page.getByRole('dialog');
    // Named after the field (it was nameless: pointed at a label id that did not exist).
    await expect(picker).toHaveAccessibleName(/^Date of birth/);
    await expectAccessible(page, 'date picker');
    await picker.getByRole('radio', { name: '1960' }).click();
    await picker.getByRole('radio', { name: 'May' }).click();
    await picker.getByRole('gridcell', { name: '17' }).click();
    await expect(picker).toHaveCount(0);
    await expect(form.getByRole('group', { name: /Date of birth/ })).toContainText('17/05/1960');

    await form.getByRole('combobox', { name: /^Gender/ }).click();
    await page.getByRole('option', { name: 'Female' }).click();
    await form.getByRole('combobox', { name: /^Language/ }).click();
    const languages = page.getByRole('listbox').getByRole('option');
    await expect(languages).toHaveText([...LANGUAGES]);
    await page.getByRole('option', { name: 'Polish' }).click();

    // The searchable device list: name - uuid.
    const deviceBox = form.getByRole('combobox', { name: /^Device/ });
    await deviceBox.click();
    await deviceBox.fill(device.uuid.slice(0, 8));
    await expectAccessible(page, 'device dropdown');
    await page.getByRole('option', { name: `${device.name} - ${device.uuid}` }).click();
    await expect(deviceBox).toHaveValue(`${device.name} - ${device.uuid}`);

    await form.getByRole('combobox', { name: /^Programme referred to/ }).click();
    await page.getByRole('option', { name: 'pad-programme' }).click();
    await form.getByLabel(/^Referring organisation/).fill('Hull Community Practice');
    await form.getByLabel(/^Referring healthcare professional(?! role)/).fill('Dr Ada Byron');
    await form.getByLabel(/^Referring healthcare professional role/).fill('Physiotherapist');
    await form
      .getByRole('radiogroup', { name: /Contraindications to exercise checked/ })
      .getByLabel('Yes')
      .check();
    await form
      .getByRole('radiogroup', { name: /^Smoker/ })
      .getByLabel('No')
      .check();
    await form
      .getByRole('radiogroup', { name: /^Diabetes/ })
      .getByLabel('Yes')
      .check();
    await form
      .getByRole('radiogroup', { name: /^Registered deaf/ })
      .getByLabel('No')
      .check();

    const saved = page.waitForResponse(
      (r) => r.url().endsWith('/api/participant') && r.request().method() === 'POST',
    );
    await form.getByRole('button', { name: 'Save' }).click();
    const created = await (await saved).json();
    await expect(page).toHaveURL(/\/participants$/);
    expect(created).toMatchObject({
      first_name: 'Grace',
      last_name: lastName,
      date_of_birth: '1960-05-17',
      gender: 'female',
      language: 'Polish',
      phone_number: '+447700900123',
      unique_device_id: device.uuid,
      push_notification_id: 'empty',
    });

    await searchParticipants(page, lastName);
    const row = participantRow(page, created.participant_id);
    await expect(cell(row, 'last_name')).toHaveText(lastName);
    await expect(cell(row, 'date_of_birth')).toHaveText('17/05/1960');
    await expect(cell(row, 'name')).toHaveText(device.name);
    // No programme yet, so no adherence state: not "On track".
    await expect(cell(row, 'days_behind')).toHaveText('No programme');
    const referral = await adminApi.get(`/api/participant/${created.participant_id}/referral`);
    expect(await referral.json()).toMatchObject({
      referring_organisation: 'Hull Community Practice',
      checked_contraindications_to_exercise: true,
      diabetes: true,
      smoker: false,
    });
  });

  test('closing the add form clears it and returns to the list', async ({ page, signInAs }) => {
    await signInAs('full access');
    await page.goto('/addparticipant');
    const form = page.getByRole('form', { name: 'Add participant' });
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByText(pm.firstNameEmpty)).toBeVisible();
    await form.getByLabel(/^First name/).fill('Someone');
    await form.getByRole('button', { name: 'Close' }).click();
    await expect(page).toHaveURL(/\/participants$/);
    await page.getByRole('link', { name: 'Add Participant' }).click();
    await expect(form.getByLabel(/^First name/)).toHaveValue('');
    await expect(form.getByText(pm.firstNameEmpty)).toHaveCount(0);
  });

  test('an inline edit of an empty value is refused and reverted; a real one is saved', async ({
    page,
    adminApi,
    signInAs,
  }) => {
    const { participant } = await addParticipant(adminApi);
    await signInAs('full access');
    await page.goto('/participants');
    await searchParticipants(page, participant.last_name);
    const row = participantRow(page, participant.participant_id);
    await expect(cell(row, 'last_name')).toHaveText(participant.last_name);

    await cell(row, 'last_name').dblclick();
    const input = cell(row, 'last_name').getByRole('textbox');
    await input.fill('');
    await input.press('Enter');
    await expect(page.getByRole('alert').filter({ hasText: messages.grid.valueEmpty })).toBeVisible();
    await expect(cell(row, 'last_name')).toHaveText(participant.last_name);
    await expectAccessible(page, 'participants with a refused edit');

    await cell(row, 'date_of_birth').dblclick();
    await expect(cell(row, 'date_of_birth').getByRole('spinbutton', { name: 'Day' })).toBeFocused();
    await page.keyboard.type('31121899');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('alert').filter({ hasText: pm.dobRange })).toBeVisible();
    await expect(cell(row, 'date_of_birth')).toHaveText('12/04/1961');

    const renamed = `${participant.last_name}x`;
    await cell(row, 'last_name').dblclick();
    await cell(row, 'last_name').getByRole('textbox').fill(renamed);
    const saved = page.waitForResponse(
      (r) =>
        r.url().endsWith(`/api/participant/${participant.participant_id}`) &&
        r.request().method() === 'PATCH',
    );
    await cell(row, 'last_name').getByRole('textbox').press('Enter');
    expect((await saved).status()).toBe(200);
    await expect(cell(row, 'last_name')).toHaveText(renamed);
    const stored = await (await adminApi.get(`/api/participant/${participant.participant_id}`)).json();
    expect(stored.last_name).toBe(renamed);
  });

  test('a date refused in the inline editor can be typed over and saved', async ({
    page,
    adminApi,
    signInAs,
  }) => {
    const { participant } = await addParticipant(adminApi);
    await signInAs('full access');
    await page.goto('/participants');
    await searchParticipants(page, participant.last_name);
    const row = participantRow(page, participant.participant_id);
    const dob = cell(row, 'date_of_birth');
    await expect(dob).toHaveText('12/04/1961');

    // Typed as an admin types a date: day, month and year, digits only.
    await dob.dblclick();
    await expect(dob.getByRole('spinbutton', { name: 'Day' })).toBeFocused();
    await page.keyboard.type('01011899');
    await expect(dob.getByRole('group', { name: 'Date of birth' })).toContainText('01/01/1899');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('alert').filter({ hasText: pm.dobRange })).toBeVisible();
    await expect(dob).toHaveText('12/04/1961');
    await expectAccessible(page, 'participants with a refused date');

    // Typed over, as before the refusal: every part takes what is typed, day first.
    await dob.dblclick();
    const editor = dob.getByRole('group', { name: 'Date of birth' });
    await expect(editor.getByRole('spinbutton', { name: 'Day' })).toBeFocused();
    await expectAccessible(page, 'participants with the date of birth editor open');
    await page.keyboard.type('14031950');
    await expect(editor).toContainText('14/03/1950');
    const saved = page.waitForResponse(
      (r) =>
        r.url().endsWith(`/api/participant/${participant.participant_id}`) &&
        r.request().method() === 'PATCH',
    );
    await page.keyboard.press('Enter');
    const answer = await saved;
    expect(answer.request().postDataJSON()).toEqual({ date_of_birth: '1950-03-14' });
    expect(answer.status()).toBe(200);
    await expect(dob).toHaveText('14/03/1950');
    await expect(page.getByRole('alert').filter({ hasText: pm.dobRange })).toHaveCount(0);
    const stored = await (await adminApi.get(`/api/participant/${participant.participant_id}`)).json();
    expect(stored.date_of_birth).toBe('1950-03-14');
    await expectAccessible(page, 'participants after retyping a date');
  });

  test('filters by adherence state from the address, in both readings', async ({
    page,
    adminApi,
    signInAs,
  }) => {
    const { participant } = await addParticipant(adminApi);
    await enrol(
      adminApi,
      participant.participant_id,
      (await addVideoSetThroughApi(adminApi)).fitness_video_set_id,
    );
    await signInAs('basic access');

    // Enrolled today, with today's video unseen: one day behind, so slightly behind.
    const slightly = page.waitForResponse(
      (r) => r.url().includes('/api/participant?') && r.url().includes('state=slightlybehind'),
    );
    await page.goto('/participants?state=slightlybehind');
    await slightly;
    await searchParticipants(page, String(participant.participant_id));
    await expect(participantRow(page, participant.participant_id)).toBeVisible();
    await expect(cell(participantRow(page, participant.participant_id), 'days_behind')).toHaveText(
      'Slightly behind · 1 day',
    );
    // The filter is said above the grid in words, with a way to clear it.
    await expect(page.getByText(/^Showing:/)).toHaveText('Showing: Slightly behind');
    await expectAccessible(page, 'participants slightly behind');

    // Other tests on this server may have put people behind: every row shown must be in the state
    // asked for, and the new participant (slightly behind) in none of the others.
    const inState = { onTrack: (d: number) => d === 0, behind: (d: number) => d > 2 };
    for (const address of [
      '/participants?state=behind',
      '/participants#onTrack',
      '/participants#anything-else',
    ]) {
      const state = address.includes('onTrack') ? 'onTrack' : 'behind';
      const filtered = page.waitForResponse(
        (r) => r.url().includes('/api/participant?') && r.url().includes(`state=${state}`),
      );
      await page.goto(address);
      const answer = (await (await filtered).json()) as {
        data: { participant_id: number; days_behind: number }[];
      };
      for (const row of answer.data)
        expect(inState[state](row.days_behind), `participant ${row.participant_id}`).toBe(true);
      expect(answer.data.map((row) => row.participant_id)).not.toContain(participant.participant_id);
      await expect(participantRow(page, participant.participant_id)).toHaveCount(0);
    }

    // The grid's own filter writes the address.
    await page.goto('/participants?state=behind');
    await page.getByRole('button', { name: /Show filters/ }).click();
    await expectAccessible(page, 'participants filter panel');
    const cleared = page.waitForResponse(
      (r) => r.url().includes('/api/participant?') && !r.url().includes('state='),
    );
    await page
      .getByRole('button', { name: /Delete/ })
      .first()
      .click();
    await cleared;
    await expect(page).toHaveURL(/\/participants$/);
  });

  test('exports the whole list as filtered and sorted, as many rows as the API counts', async ({
    page,
    adminApi,
    signInAs,
  }) => {
    // Three of a family (found by one search), two of them on a programme; more than a page of 10.
    const family = uniqueWord('Exportson');
    const set = await addVideoSetThroughApi(adminApi);
    const made = [];
    for (let i = 0; i < 3; i++) {
      made.push(
        (
          await addParticipant(adminApi, {
            first_name: `Exported${'abc'[i]}`,
            last_name: family,
            language: 'Somali',
          })
        ).participant,
      );
    }
    await enrol(adminApi, made[0]!.participant_id, set.fitness_video_set_id);
    await enrol(adminApi, made[2]!.participant_id, set.fitness_video_set_id);
    await signInAs('full access');
    await page.goto('/participants?state=slightlybehind');
    await searchParticipants(page, family);
    await expect(participantRow(page, made[0]!.participant_id)).toBeVisible();

    const api = (await (
      await adminApi.get(`/api/participant?state=slightlybehind&q=${family}&sort=participant_id&order=asc`)
    ).json()) as { pagination: { total: number } };
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^participants-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = (await readFile(await download.path(), 'utf8'))
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r\n/);
    expect(lines[0]).toBe(
      'participant_id,first_name,last_name,date_of_birth,nhs_number,email,phone_number,gender,language,name,unique_device_id,days_behind,tracking,last_contact_at,last_contact_method,last_contact_outcome',
    );
    expect(lines).toHaveLength(api.pagination.total + 1);
    expect(lines.slice(1).map((l) => Number(l.split(',')[0]))).toEqual([
      made[0]!.participant_id,
      made[2]!.participant_id,
    ]);
    // A cell starting with + could run as a spreadsheet formula: the export quotes it.
    expect(lines[1]).toBe(
      `${made[0]!.participant_id},Exporteda,${family},1961-04-12,,ada@example.org,'+447700900123,female,Somali,${made[0]!.name},${made[0]!.unique_device_id},1,Slightly behind,,,`,
    );
    await expect(page.getByRole('status').filter({ hasText: 'Exported 2 participants.' })).toBeVisible();
    await expectAccessible(page, 'participants after an export');

    // The whole list, unfiltered: every row the server counted, not the page shown.
    await page.getByRole('button', { name: 'Clear filter' }).click();
    await expect(page).toHaveURL(/\/participants$/);
    const all = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const allLines = (await readFile(await (await all).path(), 'utf8')).trim().split(/\r\n/);
    expect(allLines.slice(1).filter((l) => l.includes(family))).toHaveLength(3);
    await expect(
      page
        .getByRole('status')
        .filter({ hasText: `Exported ${(allLines.length - 1).toLocaleString('en-GB')} participants.` }),
    ).toBeVisible();
  });

  test('a basic-access admin sees no identifiable data and none of the full-access actions', async ({
    page,
    adminApi,
    signInAs,
  }) => {
    const { participant, device } = await addParticipant(adminApi, { first_name: 'Confidential' });
    await signInAs('basic access');
    await page.goto('/participants');
    await expect(page.getByRole('link', { name: 'Add Participant' })).toHaveCount(0);
    const headers = participantGrid(page).getByRole('columnheader');
    await expect(headers).toHaveText([
      'ID',
      'Tracking',
      'Tablet last in contact',
      'Gender',
      'Language',
      'Status',
      'Device',
      'Device UUID',
      'Actions',
    ]);

    const listed = page.waitForResponse(
      (r) => r.url().includes('/api/participant?') && r.url().includes(`q=${participant.participant_id}`),
    );
    await searchParticipants(page, String(participant.participant_id));
    const body = await (await listed).text();
    for (const field of IDENTIFIABLE_FIELDS) expect(body).not.toContain(`"${field}"`);
    const row = participantRow(page, participant.participant_id);
    await expect(cell(row, 'name')).toHaveText(device.name);
    await expect(
      row.getByRole('menuitem', { name: `View details of participant ${participant.participant_id}` }),
    ).toBeVisible();
    await expect(
      row.getByRole('menuitem', { name: `Message participant ${participant.participant_id}` }),
    ).toBeVisible();
    for (const hidden of ['Edit participant', 'Edit referral of participant', 'Delete participant']) {
      await expect(
        row.getByRole('menuitem', { name: `${hidden} ${participant.participant_id}` }),
      ).toHaveCount(0);
    }
    await expect(page.getByText('Confidential')).toHaveCount(0);
    await expectAccessible(page, 'participants for basic access');

    await row
      .getByRole('menuitem', { name: `View details of participant ${participant.participant_id}` })
      .click();
    const details = page.getByRole('dialog', { name: `Participant ${participant.participant_id}` });
    await expect(details.getByRole('tab', { name: 'Details' })).toBeVisible();
    // The assigned device's uuid is masked for basic access, and only full access changes devices.
    await expect(details).toContainText(`${device.name} - …${device.uuid.slice(-4)}`);
    await expect(details).not.toContainText(device.uuid);
    await expect(details.getByRole('button', { name: 'Change device' })).toHaveCount(0);
    await expect(details).not.toContainText('Confidential');
    await expect(details.getByRole('button', { name: 'Show Referral' })).toHaveCount(0);
    await expectAccessible(page, 'participant details for basic access');
    await details.getByRole('button', { name: 'Close' }).click();

    await page.goto('/addparticipant');
    await expect(page.getByRole('heading', { level: 1, name: 'Not allowed' })).toBeVisible();
    await expect(
      page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Audit trail' }),
    ).toHaveCount(0);
  });
});
