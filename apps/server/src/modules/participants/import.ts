import { parse } from 'csv-parse/sync';
import {
  NO_DEVICE,
  OPTIONAL_IMPORT_COLUMNS,
  PARTICIPANT_IMPORT_COLUMNS,
  limits,
  messages,
  participantImportRow,
  type ParticipantImportReport,
  type ParticipantImportRow,
} from '@pathway/contract';
import type { Database } from '../../db/client.js';
import { participants } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { HttpError, badRequest } from '../../lib/http-error.js';
import type { AuditService } from '../audit/index.js';
import { holdersOfNhsNumbers, possibleDuplicatesOfMany } from './duplicates.js';
import { siteForNewParticipant, uniqueConflict, type Staff } from './service.js';

const im = messages.participantImport;

/** Columns whose cells are true or false: a spreadsheet writes them TRUE and FALSE. */
const BOOLEAN_COLUMNS = new Set<string>(
  PARTICIPANT_IMPORT_COLUMNS.filter((column) => {
    const parsed = participantImportRow.shape[column].safeParse('false');
    return parsed.success && parsed.data === false;
  }),
);
const KNOWN_COLUMNS = new Set<string>(PARTICIPANT_IMPORT_COLUMNS);
const REQUIRED_COLUMNS = PARTICIPANT_IMPORT_COLUMNS.filter((c) => !OPTIONAL_IMPORT_COLUMNS.includes(c));

/** Rows inserted per statement: 500 rows of 22 values stay far below PostgreSQL's 65,535 parameters. */
const INSERT_BATCH = 500;

type Issue = ParticipantImportReport['errors'][number];
type Warning = ParticipantImportReport['warnings'][number];

interface FileRow {
  /** The line of the file the row starts on (the header is line 1). */
  line: number;
  cells: Record<string, string>;
  cellCount: number;
}

/**
 * A cell as the add form would receive it. The participant export writes a quote before a value a
 * spreadsheet would run as a formula (=, +, -, @; see csvCell); a file made from an export is
 * read back without it. True and false are read in any case.
 */
function cellValue(column: string, raw: string): string {
  const value = /^'[=+\-@]/.test(raw) ? raw.slice(1) : raw;
  return BOOLEAN_COLUMNS.has(column) ? value.trim().toLowerCase() : value;
}

/** The header and rows of the file; refuses (400) what is not a participant CSV at all. */
export function readParticipantCsv(text: string): { columns: string[]; rows: FileRow[] } {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    // With `info`, each record comes as { record, info } (csv-parse's types do not follow the option).
    records = parse(text, {
      bom: true,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      // A spreadsheet saves rows it once touched as a line of commas.
      skip_records_with_empty_values: true,
    }) as unknown as typeof records;
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    throw badRequest(typeof line === 'number' ? im.malformed(line) : im.notCsv);
  }
  const [head, ...body] = records;
  if (!head) throw badRequest(im.noRows);
  const columns = head.record.map((name) => name.trim().toLowerCase());
  const unknown = columns.filter((c) => !KNOWN_COLUMNS.has(c));
  if (unknown.length > 0) {
    // A file with no template column at all is some other file (or not text).
    if (unknown.length === columns.length) throw badRequest(im.notCsv);
    throw badRequest(
      im.unknownColumns(unknown.map((c) => (c === '' ? '(a column without a name)' : c)).join(', ')),
    );
  }
  const repeated = columns.filter((c, i) => columns.indexOf(c) !== i);
  if (repeated.length > 0) throw badRequest(im.repeatedColumns([...new Set(repeated)].join(', ')));
  const missing = REQUIRED_COLUMNS.filter((c) => !columns.includes(c));
  if (missing.length > 0) throw badRequest(im.missingColumns(missing.join(', ')));
  if (body.length === 0) throw badRequest(im.noRows);
  if (body.length > limits.participantImportMaxRows)
    throw badRequest(im.tooManyRows(limits.participantImportMaxRows));
  const rows = body.map(({ record, info }) => {
    const cells: Record<string, string> = {};
    columns.forEach((column, i) => {
      cells[column] = cellValue(column, record[i] ?? '');
    });
    // info.lines is the line the record ends on; a quoted cell may span lines.
    const inner = record.reduce((n, cell) => n + (cell.match(/\n/g)?.length ?? 0), 0);
    return { line: info.lines - inner, cells, cellCount: record.length };
  });
  return { columns, rows };
}

/** Lower case without spaces, as the database compares names for possible duplicates. */
const nameKey = (text: string) => text.replace(/\s+/g, '').toLowerCase();

export interface CheckedImport {
  report: ParticipantImportReport;
  valid: ParticipantImportRow[];
}

/**
 * Every row checked with the add form's schema and messages, then the NHS numbers against each
 * other and the register; possible duplicates (same names and date of birth, here or registered)
 * are warnings. `db` is the transaction the import will run in, when it runs.
 */
export async function checkParticipantCsv(
  db: Database,
  text: string,
  dryRun: boolean,
): Promise<CheckedImport> {
  const { columns, rows } = readParticipantCsv(text);
  const errors: Issue[] = [];
  const warnings: Warning[] = [];
  const valid: { line: number; row: ParticipantImportRow }[] = [];
  for (const { line, cells, cellCount } of rows) {
    if (cellCount !== columns.length) {
      errors.push({ line, column: null, message: im.cellCount(cellCount, columns.length) });
      continue;
    }
    const parsed = participantImportRow.safeParse(cells);
    if (parsed.success) {
      valid.push({ line, row: parsed.data });
      continue;
    }
    const seen = new Set<string>();
    for (const issue of parsed.error.issues) {
      const column = typeof issue.path[0] === 'string' ? issue.path[0] : null;
      if (column !== null && seen.has(column)) continue;
      if (column !== null) seen.add(column);
      errors.push({ line, column, message: issue.message });
    }
  }

  // NHS numbers: once in the file, and not already registered (active or discharged).
  const firstLineOf = new Map<string, number>();
  for (const { line, row } of valid) {
    if (!row.nhs_number) continue;
    const first = firstLineOf.get(row.nhs_number);
    if (first === undefined) firstLineOf.set(row.nhs_number, line);
    else errors.push({ line, column: 'nhs_number', message: im.nhsNumberRepeated(first) });
  }
  const holders = await holdersOfNhsNumbers(db, [...firstLineOf.keys()]);
  for (const { line, row } of valid) {
    const holder = row.nhs_number ? holders.get(row.nhs_number) : undefined;
    if (holder !== undefined)
      errors.push({ line, column: 'nhs_number', message: messages.nhsNumber.taken(holder) });
  }

  // Possible duplicates: warnings, never refusals.
  const registered = await possibleDuplicatesOfMany(
    db,
    valid.map((v) => v.row),
  );
  const firstLineOfPerson = new Map<string, number>();
  valid.forEach(({ line, row }, n) => {
    const ids = registered.get(n);
    if (ids) warnings.push({ line, message: im.possibleDuplicate(ids), participant_ids: ids });
    const key = `${row.date_of_birth}|${nameKey(row.last_name)}|${nameKey(row.first_name)}`;
    const first = firstLineOfPerson.get(key);
    if (first === undefined) firstLineOfPerson.set(key, line);
    else warnings.push({ line, message: im.possibleDuplicateInFile(first), participant_ids: [] });
  });

  errors.sort((a, b) => a.line - b.line);
  warnings.sort((a, b) => a.line - b.line);
  return {
    report: { dry_run: dryRun, rows: rows.length, errors, warnings, participant_ids: [] },
    valid: valid.map((v) => v.row),
  };
}

/**
 * A bulk referral: with `dryRun` the file is only checked; otherwise, if and only if no row has an
 * error, every row becomes a participant in one transaction (no device, no programme: they wait
 * for one), with one audit record listing them all. Any error, or an NHS number registered by
 * someone else meanwhile, leaves the database as it was.
 */
export async function importParticipants(
  db: Database,
  audit: AuditService,
  clock: Clock,
  text: string,
  dryRun: boolean,
  staff: Staff,
  siteId: number | undefined,
): Promise<ParticipantImportReport> {
  const site = await siteForNewParticipant(db, staff, siteId);
  if (dryRun) return (await checkParticipantCsv(db, text, true)).report;
  let written: (string | null | undefined)[] = [];
  try {
    return await db.transaction(async (tx) => {
      const { report, valid } = await checkParticipantCsv(tx, text, false);
      const [first] = report.errors;
      if (first) {
        const where = first.column ? `line ${first.line}, ${first.column}` : `line ${first.line}`;
        throw new HttpError(422, im.rowsHaveErrors(report.errors.length, `${where}: ${first.message}`));
      }
      written = valid.map((row) => row.nhs_number);
      const now = clock.now();
      const ids: number[] = [];
      for (let i = 0; i < valid.length; i += INSERT_BATCH) {
        const inserted = await tx
          .insert(participants)
          .values(
            valid.slice(i, i + INSERT_BATCH).map((row) => ({
              ...row,
              ...site,
              authorized_device_id: null,
              push_notification_id: NO_DEVICE,
              created_at: now,
              updated_at: now,
            })),
          )
          .returning({ participant_id: participants.participant_id });
        // Serial ids are drawn in the order of the rows: ascending is file order.
        ids.push(...inserted.map((r) => r.participant_id).sort((a, b) => a - b));
      }
      await audit.record(
        staff,
        {
          action: 'participant.import',
          participantIds: ids,
          detail: `${ids.length} ${ids.length === 1 ? 'row' : 'rows'} from CSV, columns ${PARTICIPANT_IMPORT_COLUMNS.join(', ')}`,
        },
        tx,
      );
      return { ...report, participant_ids: ids };
    });
  } catch (error) {
    throw await uniqueConflict(db, error, written);
  }
}
