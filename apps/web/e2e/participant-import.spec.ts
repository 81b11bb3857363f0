import { readFile } from 'node:fs/promises';
import { PARTICIPANT_IMPORT_COLUMNS, formatNhsNumber, isValidNhsNumber, messages } from '@pathway/contract';
import { expect, expectAccessible, test } from './fixtures';
import { participantRow, searchParticipants, searchedRowsShown } from './participant-grid';
import { addParticipant, uniqueWord } from './register-data';

/** A valid NHS number no other test uses (random nine digits, modulus 11 check digit). */
function freshNhsNumber(): string {
  for (;;) {
    const nine = String(Math.floor(Math.random() * 9e8) + 1e8);
    for (let check = 0; check <= 9; check++) {
      if (isValidNhsNumber(`${nine}${check}`)) return `${nine}${check}`;
    }
  }
}

type Row = Record<(typeof PARTICIPANT_IMPORT_COLUMNS)[number], string>;

function row(lastName: string, overrides: Partial<Row> = {}): Row {
  return {
    first_name: 'Imported',
    last_name: lastName,
    gender: 'female',
    date_of_birth: '1957-08-09',
    nhs_number: freshNhsNumber(),
    email: '',
    phone_number: '+447700900456',
    phone_number_secondary: '',
    address: '4 Import Lane, Leeds',
    language: 'English',
    notes: '',
    programme_referred_to: 'pad-programme',
    referring_organisation: 'Leeds Community Practice',
    referring_healthcare_professional: 'Dr Import',
    referring_healthcare_professional_role: 'GP',
    checked_contraindications_to_exercise: 'TRUE',
    smoker: 'FALSE',
    diabetes: 'FALSE',
    registered_deaf: 'FALSE',
    ...overrides,
  };
}

/** A cell as a spreadsheet saves it: quoted when it holds a comma, a quote or a line break. */
const quoted = (cell: string) => (/[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);

function csvFile(rows: Row[]) {
  const lines = [
    PARTICIPANT_IMPORT_COLUMNS.join(','),
    ...rows.map((r) => PARTICIPANT_IMPORT_COLUMNS.map((c) => quoted(r[c])).join(',')),
  ];
  return {
    name: 'referrals.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`),
  };
}

test.describe('bulk referrals from CSV', () => {
  test('a file with a bad row shows its errors by line and column; corrected, it is imported whole', async ({
    page,
    signInAs,
  }) => {
    await signInAs('full access');
    const family = uniqueWord('Import');
    const rows = [
      row(family, { first_name: 'Alma' }),
      row(family, { first_name: 'Bea' }),
      row(family, { first_name: 'Cleo' }),
    ];
    const goodNhs = rows[1]!.nhs_number;
    // The middle row: its NHS number mistyped (last digit) and its date of birth in the wrong form.
    rows[1] = {
      ...rows[1]!,
      nhs_number: `${goodNhs.slice(0, 9)}${(Number(goodNhs[9]) + 1) % 10}`,
      date_of_birth: '09/08/1957',
    };

    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: 'Participants' })
      .click();
    await page.getByRole('link', { name: 'Import CSV' }).click();
    await expect(page).toHaveURL(/\/participants\/import$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Import participants' })).toBeVisible();
    await expectAccessible(page, 'import participants');

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download template' }).click();
    const template = await download;
    expect(template.suggestedFilename()).toBe('participants-import-template.csv');
    const header = await readFile(await template.path());
    expect(
      header
        .toString('utf8')
        .replace(/^\uFEFF/, '')
        .trim(),
    ).toBe(PARTICIPANT_IMPORT_COLUMNS.join(','));

    await page.getByLabel('CSV file of participants').setInputFiles(csvFile(rows));
    await expect(page.getByText('2 errors in 3 rows: nothing can be imported yet')).toBeVisible();
    const errors = page.getByRole('table', { name: 'Errors by line' });
    await expect(errors.getByRole('row')).toHaveCount(3);
    await expect(errors.getByRole('row').nth(1)).toHaveText(
      `3date_of_birth${messages.participant.dobFormat}`,
    );
    await expect(errors.getByRole('row').nth(2)).toHaveText(`3nhs_number${messages.nhsNumber.checkDigit}`);
    await expect(page.getByRole('button', { name: /^Import \d/ })).toHaveCount(0);
    await expectAccessible(page, 'import participants with errors');

    // Corrected in the spreadsheet and chosen again.
    rows[1] = { ...rows[1], nhs_number: goodNhs, date_of_birth: '1957-08-09' };
    await page.getByLabel('CSV file of participants').setInputFiles(csvFile(rows));
    await expect(page.getByText('All 3 rows are valid')).toBeVisible();
    await expect(page.getByRole('table', { name: 'Errors by line' })).toHaveCount(0);
    await expectAccessible(page, 'import participants, file valid');

    const imported = page.waitForResponse((r) => r.url().includes('/api/participant/import?dry_run=false'));
    await page.getByRole('button', { name: 'Import 3 participants' }).click();
    const report = (await (await imported).json()) as { participant_ids: number[] };
    await expect(page.getByText(messages.participantImport.imported(3))).toBeVisible();
    await expectAccessible(page, 'import participants, imported');

    // They are in the list, without a device, with the NHS number shown as the NHS writes it.
    await page.getByRole('link', { name: 'Go to the participants list' }).click();
    await searchParticipants(page, family);
    for (const id of report.participant_ids) await expect(participantRow(page, id)).toBeVisible();
    const bea = participantRow(page, report.participant_ids[1]!);
    await expect(bea.locator('[role="gridcell"][data-field="nhs_number"]')).toHaveText(
      formatNhsNumber(goodNhs),
    );
  });

  test('basic access is offered no import, and the page is refused to it', async ({ page, signInAs }) => {
    await signInAs('basic access');
    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: 'Participants' })
      .click();
    await expect(page.getByRole('heading', { level: 1, name: 'Participants' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Import CSV' })).toHaveCount(0);
    await page.goto('/participants/import');
    await expect(page.getByRole('heading', { level: 1, name: 'Not allowed' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Import participants' })).toHaveCount(0);
  });

  test('an edit that makes a participant look like another is saved with a warning linking to them; the NHS number is checked and shown 3-3-4', async ({
    page,
    adminApi,
    signInAs,
  }) => {
    const { participant: first } = await addParticipant(adminApi);
    const { participant: second } = await addParticipant(adminApi);
    await signInAs('full access');
    await page.goto('/participants');
    await searchParticipants(page, String(second.participant_id));
    const row = participantRow(page, second.participant_id);
    await row.getByRole('menuitem', { name: `Edit participant ${second.participant_id}` }).click();
    const edit = page.getByRole('dialog', {
      name: `Edit participant — ${second.first_name} ${second.last_name}`,
    });

    const nhs = freshNhsNumber();
    const mistyped = `${nhs.slice(0, 9)}${(Number(nhs[9]) + 1) % 10}`;
    await edit.getByLabel(/^NHS number/).fill(mistyped);
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit.getByText(messages.nhsNumber.checkDigit)).toBeVisible();
    await expectAccessible(page, 'edit participant, NHS number refused');

    await edit.getByLabel(/^NHS number/).fill(`${nhs.slice(0, 3)} ${nhs.slice(3, 6)} ${nhs.slice(6)}`);
    // The same names and date of birth as the first participant (their surname, in other case).
    await edit.getByLabel(/^Last name/).fill(first.last_name.toUpperCase());
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit.getByText('Possible duplicate')).toBeVisible();
    await expect(edit.getByText(messages.possibleDuplicate.warning(1))).toBeVisible();
    await expectAccessible(page, 'edit participant, possible duplicate');

    // The link opens the list searched for the id, which the suite's shared phone number also
    // matches: the row may be further down than the grid draws (a CI run failed here unscrolled).
    await searchedRowsShown(page, String(first.participant_id), () =>
      edit.getByRole('link', { name: `Participant ${first.participant_id}` }).click(),
    );
    await expect(edit).toHaveCount(0);
    await expect(page).toHaveURL(new RegExp(`/participants\\?q=${first.participant_id}$`));
    await expect(participantRow(page, first.participant_id)).toBeVisible();

    // The edit was saved: the NHS number reads back as the NHS writes it.
    await page.goto('/participants');
    await searchParticipants(page, String(second.participant_id));
    await participantRow(page, second.participant_id)
      .getByRole('menuitem', { name: `View details of participant ${second.participant_id}` })
      .click();
    const details = page.getByRole('dialog', { name: `Participant ${second.participant_id}` });
    await expect(details).toContainText(formatNhsNumber(nhs));
    await expectAccessible(page, 'participant details with NHS number');
  });
});
