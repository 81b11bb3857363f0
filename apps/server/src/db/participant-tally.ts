import { sql } from 'drizzle-orm';
import type { ParticipantStatus } from '@pathway/contract';
import type { Database } from './client.js';
import { preparedRows } from './prepared.js';
import { column, rowsReader } from './rows.js';

/**
 * Counting participants per adherence class reads every participant (hundreds of milliseconds at
 * 100k in PGlite), on every grid page and every dashboard. Triggers instead append the change each
 * statement makes to participant_tally, inside its transaction; reads sum those rows. Appending
 * (never updating a shared counter row) means writers never wait for each other or deadlock.
 *
 * Who counts what:
 * - participant_adherence (each participant's days_behind and class, made when they are inserted):
 *   an insert adds to (class, no programme); a change of days_behind that changes the class moves
 *   the participant, with or without a programme as they are.
 * - participants: a delete (row trigger, before the cascade removes the programme and the
 *   participant_adherence row) takes them out where they were.
 * - fitness_participation_progress: an insert or a delete moves its participant between "no
 *   programme" and "programme" in their class; a programme deleted because its participant is
 *   being deleted is skipped (the participant is already gone and was counted out).
 *
 * - participants' status: a discharge or re-referral moves the participant from one status to
 *   another, in their class and with or without their programme; every row carries the status.
 *
 * The triggers' current definitions are in db/functions/participant-tally.sql: drizzle-kit cannot
 * express them from schema.ts, so a change to them is a hand-written migration that replaces them
 * and copies the new definition into that file (db/functions.test.ts holds the two together).
 */

export interface ParticipantCounts {
  /** [class 0, 1, 2]: every participant. */
  all: [number, number, number];
  /** [class 0, 1, 2]: participants with a programme. */
  withProgramme: [number, number, number];
}

/** A status of the grid's filter, or every participant. */
export type TallyStatus = ParticipantStatus | 'all';

const CLASSES = [0, 1, 2] as const;

/**
 * The tally summed into one row of six counts: `all_<class>` for every participant of the class,
 * `programme_<class>` for those of them with a programme. Each class is one range of the rows
 * (participant_adherence.adherence is a generated column, 0, 1 or 2). A fixed text, so it is
 * prepared once and never planned again; the dashboard reads it within its own statement.
 */
export const TALLY_COUNTS_SQL = `select ${[
  ...CLASSES.map((c) => `coalesce(sum(delta) filter (where adherence = ${c}), 0)::int as all_${c}`),
  ...CLASSES.map(
    (c) =>
      `coalesce(sum(delta) filter (where adherence = ${c} and with_programme), 0)::int as programme_${c}`,
  ),
].join(', ')} from participant_tally`;

/** TALLY_COUNTS_SQL's columns, for a reader of a statement that selects them. */
export const TALLY_COUNTS_COLUMNS = {
  all_0: column.integer,
  all_1: column.integer,
  all_2: column.integer,
  programme_0: column.integer,
  programme_1: column.integer,
  programme_2: column.integer,
};

/** The counts of a row read with TALLY_COUNTS_COLUMNS. */
export function countsOf(row: Record<keyof typeof TALLY_COUNTS_COLUMNS, number>): ParticipantCounts {
  return {
    all: [row.all_0, row.all_1, row.all_2],
    withProgramme: [row.programme_0, row.programme_1, row.programme_2],
  };
}

const readCounts = rowsReader(TALLY_COUNTS_COLUMNS);

/**
 * The counts of the participants of one status (`all`: every participant). The dashboard and the
 * grid's default view count active participants only: a discharged participant is no longer in
 * the programme. Two named statements (db/prepared.ts): a page of the grid counts on every request.
 */
export async function participantCounts(
  db: Database,
  status: TallyStatus = 'all',
): Promise<ParticipantCounts> {
  const [row] = readCounts(
    status === 'all'
      ? await preparedRows(db, 'participant-tally.counts.v1', TALLY_COUNTS_SQL, [])
      : await preparedRows(
          db,
          'participant-tally.counts-of-status.v1',
          `${TALLY_COUNTS_SQL} where status = $1`,
          [status],
        ),
  );
  // An aggregate without GROUP BY answers one row, whether the tally has rows or not.
  return countsOf(row!);
}

/** Folds the tally into one row per class, programme and status (daily): reads then sum a handful of rows. */
export async function foldParticipantTally(db: Database): Promise<void> {
  // Rows appended meanwhile are not in this snapshot: they stay, and are folded next time.
  await db.execute(sql`
    with folded as (delete from participant_tally returning site_id, adherence, with_programme, status, delta)
    insert into participant_tally (site_id, adherence, with_programme, status, delta)
    select site_id, adherence, with_programme, status, sum(delta)::int from folded group by 1, 2, 3, 4 having sum(delta) <> 0`);
}
