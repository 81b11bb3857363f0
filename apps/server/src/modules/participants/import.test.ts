import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PARTICIPANT_IMPORT_COLUMNS,
  limits,
  messages,
  type ParticipantImportReport,
} from '@pathway/contract';
import { auditEvents, participants, participationProgress } from '../../db/schema.js';
import { createTestApp, signedInCookie, type TestApp } from '../../../test/harness.js';
import { addParticipant, freshNhsNumber } from '../../../test/factories.js';
import { csvCell } from '../audit/service.js';

/** Bulk referrals from CSV (issue 32): checked like the add form, imported all or nothing. */

const im = messages.participantImport;
let t: TestApp;
let full: string;
let basic: string;
let counter = 0;

beforeAll(async () => {
  t = await createTestApp();
  full = (await signedInCookie(t.ctx, 'full access')).cookie;
  basic = (await signedInCookie(t.ctx, 'basic access')).cookie;
});
afterAll(() => t.close());

type Row = Partial<Record<(typeof PARTICIPANT_IMPORT_COLUMNS)[number], string>>;

/** A row the add form would accept (less the device); each test changes what it is about. */
function row(overrides: Row = {}): Row {
  counter += 1;
  return {
    first_name: 'Imported',
    last_name: `Person${counter}`,
    gender: 'female',
    date_of_birth: '1958-03-14',
    nhs_number: freshNhsNumber(),
    email: `imported${counter}@example.org`,
    phone_number: '+447700900321',
    phone_number_secondary: '',
    address: `${counter} Import Street, Leeds`,
    language: 'English',
    notes: '',
    programme_referred_to: 'pad-programme',
    referring_organisation: 'Leeds Community Practice',
    referring_healthcare_professional: 'Dr Import',
    referring_healthcare_professional_role: 'GP',
    checked_contraindications_to_exercise: 'true',
    smoker: 'false',
    diabetes: 'FALSE',
    registered_deaf: 'false',
    ...overrides,
  };
}

/** The file as the template and the export write it: a byte-order mark, CRLF, cells quoted as needed. */
function csv(rows: Row[], columns: readonly string[] = PARTICIPANT_IMPORT_COLUMNS): string {
  const lines = rows.map((r) =>
    columns.map((c) => csvCell((r as Record<string, string>)[c] ?? '')).join(','),
  );
  return `\uFEFF${[columns.join(','), ...lines].join('\r\n')}\r\n`;
}

function send(body: string | Buffer, dryRun: boolean, cookie = full, type = 'text/csv; charset=utf-8') {
  return t.app.inject({
    method: 'POST',
    url: `/api/participant/import?dry_run=${dryRun}`,
    headers: { cookie, 'content-type': type },
    payload: body,
  });
}

async function count(): Promise<number> {
  const [r] = await t.ctx.database.db.select({ n: sql<number>`count(*)::int` }).from(participants);
  return r!.n;
}

describe('checking a file (dry run)', () => {
  it("reports every error by line and column with the add form's messages, and adds nobody", async () => {
    const before = await count();
    const res = await send(
      csv([
        row(),
        row({ first_name: '', nhs_number: '9434765918' }),
        row({ date_of_birth: '17/05/1960', phone_number: '07700900321' }),
        row({ language: 'Klingon', smoker: 'maybe' }),
      ]),
      true,
    );
    expect(res.statusCode).toBe(200);
    const report = res.json<ParticipantImportReport>();
    expect(report).toMatchObject({ dry_run: true, rows: 4, participant_ids: [] });
    expect(report.errors).toEqual([
      { line: 3, column: 'first_name', message: messages.participant.firstNameEmpty },
      { line: 3, column: 'nhs_number', message: messages.nhsNumber.checkDigit },
      { line: 4, column: 'date_of_birth', message: messages.participant.dobFormat },
      { line: 4, column: 'phone_number', message: messages.participant.phoneFormat },
      { line: 5, column: 'language', message: messages.participant.languageInvalid },
      { line: 5, column: 'smoker', message: messages.referral.selectionEmpty },
    ]);
    expect(await count()).toBe(before);
  });

  it('refuses an NHS number twice in the file, or already registered, naming the line or the holder', async () => {
    const { participant } = await addParticipant(t, full, { nhs_number: freshNhsNumber() });
    const registered = participant.nhs_number as string;
    const twice = freshNhsNumber();
    const spaced = `${twice.slice(0, 3)} ${twice.slice(3, 6)} ${twice.slice(6)}`;
    const res = await send(
      csv([row({ nhs_number: twice }), row({ nhs_number: registered }), row({ nhs_number: spaced })]),
      true,
    );
    expect(res.json<ParticipantImportReport>().errors).toEqual([
      { line: 3, column: 'nhs_number', message: messages.nhsNumber.taken(participant.participant_id) },
      { line: 4, column: 'nhs_number', message: im.nhsNumberRepeated(2) },
    ]);
  });

  it('warns of possible duplicates, registered or within the file, without refusing them', async () => {
    const { participant } = await addParticipant(t, full, {
      first_name: 'Elizabeth',
      last_name: 'Gaskell',
      date_of_birth: '1955-09-29',
    });
    const res = await send(
      csv([
        row({ first_name: 'ELIZABETH', last_name: 'Gaskell ', date_of_birth: '1955-09-29' }),
        row({ first_name: 'Anne', last_name: 'Lister', date_of_birth: '1951-04-03' }),
        row({ first_name: 'anne', last_name: 'LISTER', date_of_birth: '1951-04-03' }),
      ]),
      true,
    );
    const report = res.json<ParticipantImportReport>();
    expect(report.errors).toEqual([]);
    expect(report.warnings).toEqual([
      {
        line: 2,
        message: im.possibleDuplicate([participant.participant_id]),
        participant_ids: [participant.participant_id],
      },
      { line: 4, message: im.possibleDuplicateInFile(3), participant_ids: [] },
    ]);
  });

  it('numbers lines as the file has them: blank lines and a cell over two lines counted', async () => {
    const text = csv([row(), row({ address: '1 Long Road\nLeeds' }), row({ email: 'not an email' })]).replace(
      /\r\n/,
      '\r\n\r\n,,,,,,,,,,,,,,,,,,\r\n',
    );
    const report = (await send(text, true)).json<ParticipantImportReport>();
    expect(report.rows).toBe(3);
    expect(report.errors).toEqual([{ line: 7, column: 'email', message: messages.participant.emailInvalid }]);
  });

  it('says which line has too few or too many cells', async () => {
    const good = csv([row()]);
    const text = `${good}Short,Line\r\n`;
    const report = (await send(text, true)).json<ParticipantImportReport>();
    expect(report.errors).toEqual([
      { line: 3, column: null, message: im.cellCount(2, PARTICIPANT_IMPORT_COLUMNS.length) },
    ]);
  });

  it("reads back a cell the export guarded against formulas ('+44...)", async () => {
    const res = await send(csv([row({ phone_number: "'+447700900555" })]), true);
    expect(res.json<ParticipantImportReport>().errors).toEqual([]);
  });

  it('takes a file without the optional columns (their cells read as empty)', async () => {
    const columns = PARTICIPANT_IMPORT_COLUMNS.filter(
      (c) => !['gender', 'nhs_number', 'email', 'phone_number_secondary', 'notes'].includes(c),
    );
    const res = await send(csv([row()], columns), true);
    expect(res.statusCode).toBe(200);
    expect(res.json<ParticipantImportReport>().errors).toEqual([]);
  });
});

describe('importing (dry_run=false)', () => {
  it('adds every row in one go, without device or programme, in file order, with one audit record', async () => {
    const rows = [
      row({ first_name: 'Ada' }),
      row({ first_name: 'Bea', nhs_number: '' }),
      row({ first_name: 'Cy' }),
    ];
    const res = await send(csv(rows), false);
    expect(res.statusCode).toBe(200);
    const report = res.json<ParticipantImportReport>();
    expect(report).toMatchObject({ dry_run: false, rows: 3, errors: [] });
    expect(report.participant_ids).toHaveLength(3);
    const added = await t.ctx.database.db
      .select()
      .from(participants)
      .where(inArray(participants.participant_id, report.participant_ids))
      .orderBy(participants.participant_id);
    expect(added.map((p) => p.first_name)).toEqual(['Ada', 'Bea', 'Cy']);
    expect(added.map((p) => p.participant_id)).toEqual(report.participant_ids);
    for (const p of added) {
      expect(p).toMatchObject({
        authorized_device_id: null,
        push_notification_id: 'empty',
        status: 'active',
      });
      expect(p.diabetes).toBe(false);
      expect(p.checked_contraindications_to_exercise).toBe(true);
    }
    expect(added[0]!.nhs_number).toBe(rows[0]!.nhs_number);
    expect(added[1]!.nhs_number).toBeNull();
    const progress = await t.ctx.database.db
      .select()
      .from(participationProgress)
      .where(inArray(participationProgress.participant_id, report.participant_ids));
    expect(progress).toEqual([]);

    const audits = await t.ctx.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'participant.import'));
    expect(audits).toHaveLength(1);
    expect(audits[0]!.participant_ids).toEqual(report.participant_ids);
    // Names the fields, never a value.
    expect(audits[0]!.detail).not.toContain('Ada');

    // Each is a participant like any other: read back through the API.
    const one = await t.app.inject({
      url: `/api/participant/${report.participant_ids[0]}`,
      headers: { cookie: full },
    });
    expect(one.json()).toMatchObject({ first_name: 'Ada', unique_device_id: 'empty', adherence_state: null });
  });

  it('adds nobody when one row in the middle is bad (422 naming the line), then everybody once it is fixed', async () => {
    const rows = Array.from({ length: 9 }, () => row());
    rows[4] = row({ date_of_birth: '2999-01-01' });
    const before = await count();
    const auditsBefore = await t.ctx.database.db.select({ n: sql<number>`count(*)::int` }).from(auditEvents);
    const refused = await send(csv(rows), false);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe(
      im.rowsHaveErrors(1, `line 6, date_of_birth: ${messages.participant.dobRange}`),
    );
    expect(await count()).toBe(before);
    const auditsAfter = await t.ctx.database.db.select({ n: sql<number>`count(*)::int` }).from(auditEvents);
    expect(auditsAfter[0]!.n).toBe(auditsBefore[0]!.n);

    rows[4] = row({ date_of_birth: '1960-01-01' });
    const imported = await send(csv(rows), false);
    expect(imported.statusCode).toBe(200);
    expect(imported.json<ParticipantImportReport>().participant_ids).toHaveLength(9);
    expect(await count()).toBe(before + 9);
  });

  it('adds nobody when an NHS number is registered by the time of the import', async () => {
    const nhs = freshNhsNumber();
    const rows = [row(), row({ nhs_number: nhs }), row()];
    expect((await send(csv(rows), true)).json<ParticipantImportReport>().errors).toEqual([]);
    const { participant } = await addParticipant(t, full, { nhs_number: nhs });
    const before = await count();
    const refused = await send(csv(rows), false);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toContain(messages.nhsNumber.taken(participant.participant_id));
    expect(await count()).toBe(before);
  });

  it('imports a possible duplicate (a warning is no refusal)', async () => {
    const { participant } = await addParticipant(t, full, {
      first_name: 'Fanny',
      last_name: 'Burney',
      date_of_birth: '1952-06-13',
    });
    const res = await send(
      csv([row({ first_name: 'Fanny', last_name: 'Burney', date_of_birth: '1952-06-13' })]),
      false,
    );
    expect(res.statusCode).toBe(200);
    const report = res.json<ParticipantImportReport>();
    expect(report.participant_ids).toHaveLength(1);
    expect(report.warnings[0]!.participant_ids).toEqual([participant.participant_id]);
  });
});

describe('files refused as a whole, with a clear 4xx, changing nothing', () => {
  it.each([
    ['a JSON body', JSON.stringify({ first_name: 'x' }), 'application/json', 415, im.notCsv],
    ['no content type', 'first_name\r\n', '', 415, im.notCsv],
    [
      'a spreadsheet saved as .xlsx (binary)',
      Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0x08, 0x00]),
      'text/csv',
      400,
      im.notCsv,
    ],
    ['text that is not UTF-8', Buffer.from([0x66, 0x69, 0xff, 0xfe, 0x0a]), 'text/csv', 400, im.notCsv],
    ['an empty file', '', 'text/csv', 400, im.noRows],
    ['a header and no rows', `${PARTICIPANT_IMPORT_COLUMNS.join(',')}\r\n`, 'text/csv', 400, im.noRows],
    ['some other CSV', 'date,amount\r\n2026-01-01,3\r\n', 'text/csv', 400, im.notCsv],
  ])('%s', async (_what, body, type, status, message) => {
    const before = await count();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/participant/import?dry_run=false',
      headers: { cookie: full, ...(type ? { 'content-type': type } : {}) },
      payload: body,
    });
    expect(res.statusCode).toBe(status);
    expect(res.json().message).toBe(message);
    expect(await count()).toBe(before);
  });

  it('unknown columns, named', async () => {
    const res = await send(
      csv([row()], [...PARTICIPANT_IMPORT_COLUMNS, 'favourite_colour', 'Shoe Size']),
      false,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(im.unknownColumns('favourite_colour, shoe size'));
  });

  it('missing required columns, named', async () => {
    const res = await send(
      csv(
        [row()],
        PARTICIPANT_IMPORT_COLUMNS.filter((c) => c !== 'address' && c !== 'smoker'),
      ),
      false,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(im.missingColumns('address, smoker'));
  });

  it('a column twice', async () => {
    const res = await send(csv([row()], [...PARTICIPANT_IMPORT_COLUMNS, 'notes']), true);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(im.repeatedColumns('notes'));
  });

  it('a quote left open', async () => {
    const res = await send(`${csv([row()])}"Unclosed,quote\r\n`, true);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^The file is not valid CSV near line \d+/);
  });

  it('over 5 MB: 413 with the limit said, before the rows are read', async () => {
    const before = await count();
    const big =
      csv([row()]) + `${'x,'.repeat(18)}x\r\n`.repeat(Math.ceil(limits.participantImportMaxBytes / 38) + 10);
    expect(Buffer.byteLength(big)).toBeGreaterThan(limits.participantImportMaxBytes);
    const res = await send(big, false);
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe(im.tooLarge(5));
    expect(await count()).toBe(before);
  });

  it('more rows than one import takes', async () => {
    const one = csv([row()]).split('\r\n')[1]!;
    const text = `${PARTICIPANT_IMPORT_COLUMNS.join(',')}\r\n${`${one}\r\n`.repeat(limits.participantImportMaxRows + 1)}`;
    const res = await send(text, true);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(im.tooManyRows(limits.participantImportMaxRows));
  });

  it('a dry_run that is neither true nor false', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/participant/import?dry_run=yes',
      headers: { cookie: full, 'content-type': 'text/csv' },
      payload: csv([row()]),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('dry_run must be true or false');
  });
});

describe('who may import', () => {
  it('basic access gets 403 and nothing is added; nobody signed in gets 401', async () => {
    const before = await count();
    const refused = await send(csv([row()]), false, basic);
    expect(refused.statusCode).toBe(403);
    const stranger = await t.app.inject({
      method: 'POST',
      url: '/api/participant/import?dry_run=false',
      headers: { 'content-type': 'text/csv' },
      payload: csv([row()]),
    });
    expect(stranger.statusCode).toBe(401);
    expect(await count()).toBe(before);
  });
});
