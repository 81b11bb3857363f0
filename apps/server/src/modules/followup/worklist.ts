import {
  FOLLOWUP_NOT_STARTED_DAYS,
  FOLLOWUP_REASONS,
  messages,
  type ContactMethod,
  type ContactOutcome,
  type FollowupReason,
} from '@pathway/contract';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { cursorCodec, cursorParts, pagedStatement, type ComposedPage } from '../../db/paged-statement.js';
import { arrayRows, rowReader } from '../../db/rows.js';
import type { AuditActor } from '../audit/index.js';

/**
 * The follow-up worklist's SQL. Every reason is a range of one partial index of
 * participant_followup, ordered by the time the reason's fact began, so a page is at most one
 * short index walk per reason: the unfiltered list is the reasons' walks in urgency order (each row
 * under its most urgent reason only), a filtered list the one walk. Values are positional
 * parameters: $1 the silent threshold, $2 the not-started threshold, $3 today (programme
 * calendar); and for `since`, $4 the programme time zone, $5 the silent days.
 */
interface ReasonSql {
  /** Its column of participant_followup: when its fact began, the order of its partial index. */
  column: string;
  /**
   * A reason the clock brings: it holds once its column is older than this threshold parameter;
   * followup_tally counts it by the day of its column, and its partial index the threshold's own
   * day (thresholdCount). Without one the reason holds while its column is set (the triggers keep
   * it) and followup_tally counts it.
   */
  threshold?: '$1' | '$2';
  /**
   * A reason whose own days decide (assessment_due): its whole condition, a range of its column
   * (bounding the index walk) and the days that hold today. The clock brings it too: no tally.
   */
  range?: string;
  /** The time the reason itself began (for `since`). */
  began: string;
  /**
   * `began` comes from the facts; where it does not (no fact was kept), the reason began on or
   * before it (`since_exact` false). Omitted: always from the facts.
   */
  exact?: string;
}

/** A day kept as its 00:00 UTC (behind_since, slightly_since), as 00:00 in the programme's time zone. */
const dayInProgrammeZone = (column: string) => `((${column} at time zone 'UTC') at time zone $4::text)`;

/**
 * A new reason is its name in the contract's FOLLOWUP_REASONS (in urgency order) and an entry here;
 * its migration adds the column, its partial index and, for a kept reason, its tally and its
 * column in the predicates of the listed and the *_only indexes and in followup_tally_keys' *_only
 * rows (the counts below read them; NONE_KEPT here and that function must agree). CONTRIBUTING.md,
 * "Adding a follow-up reason".
 */
const REASON_SQL: Record<FollowupReason, ReasonSql> = {
  behind: {
    column: 'behind_since',
    began: dayInProgrammeZone('f.behind_since'),
    exact: 'f.third_missed_on is not null',
  },
  tablet_silent: {
    column: 'silent_from',
    threshold: '$1',
    began: 'f.silent_from + make_interval(days => $5::int)',
  },
  reminders_failing: {
    column: 'failing_since',
    began: 'f.failing_since',
    exact: 'f.failing_began_at is not null',
  },
  slightly_behind: {
    column: 'slightly_since',
    began: dayInProgrammeZone('f.slightly_since'),
    exact: 'f.first_missed_on is not null',
  },
  programme_finished: { column: 'finished_since', began: 'f.finished_since' },
  not_started: {
    column: 'not_started_from',
    threshold: '$2',
    began: `f.not_started_from + interval '${FOLLOWUP_NOT_STARTED_DAYS} days'`,
  },
  // The stretch of days holds today ($3). Its column is the instant its first day begins (00:00
  // in the programme's time zone), before 00:00 UTC two days on in any zone: that bounds the walk
  // of its index; the days decide.
  assessment_due: {
    column: 'assessment_due_from',
    range: `f.assessment_due_from < ($3::date + 2)::timestamp at time zone 'UTC' and f.assessment_due_on <= $3::date and f.assessment_due_until >= $3::date`,
    began: 'f.assessment_due_from',
  },
};

/** The reason applies (a range of its index). */
const holds = (reason: FollowupReason) => {
  const r = REASON_SQL[reason];
  if (r.range) return r.range;
  return r.threshold ? `f.${r.column} <= ${r.threshold}::timestamptz` : `f.${r.column} is not null`;
};
/** Its order in the index: the time its fact began. */
const keyOf = (reason: FollowupReason) => `f.${REASON_SQL[reason].column}`;

const REASONS_ARRAY = `array_remove(array[${FOLLOWUP_REASONS.map(
  (r) => `case when ${holds(r)} then '${r}' end`,
).join(', ')}]::text[], null)`;

const BEGAN = `least(${FOLLOWUP_REASONS.map((r) => `case when ${holds(r)} then ${REASON_SQL[r].began} end`).join(', ')})`;
const SINCE = `to_char((${BEGAN} at time zone $4::text)::date, 'YYYY-MM-DD')`;
/** The oldest reason's start is a fact: an exact reason began then (ties go to the fact). */
const SINCE_EXACT = `coalesce(least(${FOLLOWUP_REASONS.map((r) => {
  const exact = REASON_SQL[r].exact;
  return `case when ${holds(r)}${exact ? ` and ${exact}` : ''} then ${REASON_SQL[r].began} end`;
}).join(', ')}) = ${BEGAN}, false)`;

/**
 * How many are listed, without reading the listed rows: the reasons the triggers keep from
 * followup_tally, plus each reason the clock brings among those without a kept one (a tablet can
 * only be silent with a device and a programme, and only someone without both is "not started", so
 * these never overlap: each from the tally by day, thresholdCount; a reason of days, which may hold
 * with either, is counted row by row among those without them), less the snoozed who have no new
 * reason (a few rows, read through their own index). Each range is written as its index's
 * predicate, so that the planner reads the index alone.
 */
const KEPT = FOLLOWUP_REASONS.filter((r) => REASON_SQL[r].threshold === undefined && !REASON_SQL[r].range);
const BY_CLOCK = FOLLOWUP_REASONS.filter((r) => REASON_SQL[r].threshold !== undefined || REASON_SQL[r].range);
const THRESHOLDS = FOLLOWUP_REASONS.filter((r) => REASON_SQL[r].threshold !== undefined);
const tallied = (name: string) =>
  `(select coalesce(sum(delta), 0) from followup_tally where reason = '${name}')`;
const NONE_KEPT = KEPT.map((r) => `f.${REASON_SQL[r].column} is null`).join(' and ');
const SNOOZED_HIDDEN = (holding: string) =>
  `(select count(*) from participant_followup f where f.snoozed_until > $3::date and (${holding}) and ${REASONS_ARRAY} <@ f.snooze_reasons)`;

/**
 * How many hold a reason of a threshold (a silent tablet, not started) at that instant T, without
 * reading each row: followup_tally keeps them by the UTC day their time falls on (drizzle 0034), so
 * the count is the tally's days before T's day plus the rows of T's own day up to T, a short range
 * of the reason's partial index. `only`: among those with none of the kept reasons (its own tally,
 * and the *_only index).
 */
function thresholdCount(reason: FollowupReason, only: boolean): string {
  const { column, threshold } = REASON_SQL[reason];
  const t = `${threshold!}::timestamptz`;
  const dayOfT = `(${t} at time zone 'UTC')`;
  return `((select coalesce(sum(delta), 0) from followup_tally
      where reason = '${reason}${only ? '_only' : ''}' and day < ${dayOfT}::date)
    + (select count(*) from participant_followup f
      where f.${column} >= date_trunc('day', ${dayOfT}) at time zone 'UTC' and f.${column} <= ${t}${only ? ` and ${NONE_KEPT}` : ''}))`;
}

function totalSql(reason: FollowupReason | undefined): string {
  if (reason) {
    const listed = KEPT.includes(reason)
      ? tallied(reason)
      : REASON_SQL[reason].threshold
        ? thresholdCount(reason, false)
        : `(select count(*) from participant_followup f where ${holds(reason)})`;
    return `(${listed} - ${SNOOZED_HIDDEN(holds(reason))})::int`;
  }
  const anyReason = FOLLOWUP_REASONS.map(holds).join(' or ');
  const byClock = BY_CLOCK.map((r) => {
    if (REASON_SQL[r].threshold) return `\n    + ${thresholdCount(r, true)}`;
    const apart = THRESHOLDS.map((t) => ` and not coalesce(${holds(t)}, false)`).join('');
    return `\n    + (select count(*) from participant_followup f where ${holds(r)} and ${NONE_KEPT}${apart})`;
  }).join('');
  return `(${tallied('listed')}${byClock}
    - ${SNOOZED_HIDDEN(anyReason)})::int`;
}

/** The tally's rows folded into one per site, reason and day (also run by the bench's load). */
export const FOLD_FOLLOWUP_TALLY_SQL = `
    with gone as (delete from followup_tally returning site_id, reason, day, delta)
    insert into followup_tally (site_id, reason, day, delta)
    select site_id, reason, day, sum(delta)::int from gone group by site_id, reason, day having sum(delta) <> 0`;

/** Folds the tally's rows (the daily job, after the check). */
export async function foldFollowupTally(db: Database): Promise<void> {
  await db.execute(sql.raw(FOLD_FOLLOWUP_TALLY_SQL));
}

/** Off the list until the next follow-up date, unless a reason appeared since the contact. */
const NOT_SNOOZED = `(f.snoozed_until is null or f.snoozed_until <= $3::date or not (${REASONS_ARRAY} <@ f.snooze_reasons))`;

export interface WorklistClock {
  now: Date;
  silentDays: number;
  today: string;
  timeZone: string;
}

function baseParams(c: WorklistClock): unknown[] {
  const day = 86_400_000;
  return [
    new Date(c.now.getTime() - c.silentDays * day).toISOString(),
    new Date(c.now.getTime() - FOLLOWUP_NOT_STARTED_DAYS * day).toISOString(),
    c.today,
    c.timeZone,
    c.silentDays,
  ];
}

/** The place of a worklist row: its reason's rank (urgency), that reason's time and its id. */
export interface WorklistCursor {
  rank: number;
  key: string;
  id: number;
}

/** A worklist cursor belongs to its reason filter; a filtered list's rows all have that reason's rank. */
export const worklistCursor = cursorCodec<{ reason?: FollowupReason }, WorklistCursor>({
  refusal: messages.followup.cursorInvalid,
  of: ({ reason }) => [reason ?? null],
  at: ({ reason }) => ({
    rank: reason
      ? cursorParts.int(FOLLOWUP_REASONS.indexOf(reason), FOLLOWUP_REASONS.indexOf(reason))
      : cursorParts.int(0, FOLLOWUP_REASONS.length - 1),
    key: cursorParts.timestamp,
    id: cursorParts.id,
  }),
});

export interface WorklistRow {
  rank: number;
  key: Date;
  participant_id: number;
  reasons: FollowupReason[];
  since: string;
  since_exact: boolean;
  days_behind: number;
  device_name: string | null;
  tablet_last_contact_at: Date | null;
  last_contact_at: Date | null;
  last_contact_method: ContactMethod | null;
  last_contact_outcome: ContactOutcome | null;
  next_followup_on: string | null;
  first_name: string | null;
  last_name: string | null;
  phone_number: string | null;
  phone_number_secondary: string | null;
}

/** The place a row's cursor carries. */
export function worklistPositionOf(row: WorklistRow): WorklistCursor {
  return { rank: row.rank, key: row.key.toISOString(), id: row.participant_id };
}

export interface WorklistRequest {
  reason?: FollowupReason;
  limit: number;
  offset: number;
  cursor?: WorklistCursor;
  identifiable: boolean;
  audit?: { actor: AuditActor; detail: string };
}

/** The walk of one reason's index: `exclusive` leaves out rows that have a more urgent reason. */
function branch(
  rank: number,
  exclusive: boolean,
  cursor: { rank: number; key: string; id: string } | undefined,
  limit: string,
): string {
  const reason = FOLLOWUP_REASONS[rank]!; // rank is an index of FOLLOWUP_REASONS by construction
  const key = keyOf(reason);
  const conditions = [holds(reason), NOT_SNOOZED];
  if (exclusive) {
    for (const earlier of FOLLOWUP_REASONS.slice(0, rank))
      conditions.push(`not coalesce(${holds(earlier)}, false)`);
  }
  if (cursor && cursor.rank === rank)
    conditions.push(`(${key}, f.participant_id) > (${cursor.key}::timestamptz, ${cursor.id}::int)`);
  return `(select f.participant_id, ${rank} as rank, ${key} as key from participant_followup f
    where ${conditions.join(' and ')} order by ${key}, f.participant_id limit ${limit})`;
}

/** The page's columns in its select order. */
const readWorklistRow = rowReader<WorklistRow>()([
  'rank',
  'key',
  'participant_id',
  'reasons',
  'since',
  'since_exact',
  'days_behind',
  'device_name',
  'tablet_last_contact_at',
  'last_contact_at',
  'last_contact_method',
  'last_contact_outcome',
  'next_followup_on',
  'first_name',
  'last_name',
  'phone_number',
  'phone_number_secondary',
]);

/**
 * Every page is named, so that PostgreSQL plans it once per connection: the texts differ only by
 * shape (reason filter, cursor's reason, page size and offset, role, audit), every value is a
 * parameter, and each range is one the partial indexes answer for any value. Its plan is the
 * generic one: left to choose, PostgreSQL planned it again for every request (the generic plan's
 * estimate of ranges of unknown values is the higher), which cost 4 to 7 ms of its CPU to plan a
 * statement that runs in about 1 ms at 100k participants (bench/results.md, issue 41).
 */
const worklistStatement = pagedStatement({
  name: 'followup.page',
  read: readWorklistRow,
  auditAction: 'followup.list',
  order: ['rank', 'key', 'participant_id'],
  plan: 'generic',
});

/** One statement: the total, the page's rows and (full access) the page's audit record. */
export async function worklistPage(
  db: Database,
  clock: WorklistClock,
  req: WorklistRequest,
): Promise<{ total: number; rows: WorklistRow[] }> {
  const { rows, total } = await worklistStatement.run(db, worklistPageSql(clock, req), true);
  return { total: total ?? 0, rows };
}

/** The worklist page's statement and its values (also read by the bench's EXPLAIN). */
export function worklistPageSql(clock: WorklistClock, req: WorklistRequest): ComposedPage {
  const params = baseParams(clock);
  const param = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const cursor = req.cursor && {
    rank: req.cursor.rank,
    key: param(req.cursor.key),
    id: param(req.cursor.id),
  };
  const walkLimit = String(req.limit + req.offset);
  const ranks = req.reason
    ? [FOLLOWUP_REASONS.indexOf(req.reason)]
    : FOLLOWUP_REASONS.map((_, i) => i).filter((i) => !req.cursor || i >= req.cursor.rank);
  const walks = ranks
    .map((rank) => branch(rank, req.reason === undefined, cursor, walkLimit))
    .join(' union all ');
  const identifiable = req.identifiable
    ? 'p.first_name, p.last_name, p.phone_number, p.phone_number_secondary'
    : 'null, null, null, null';
  return worklistStatement.compose({
    params,
    with: [
      `ids as (select * from (${walks}) u order by rank, key, participant_id limit ${req.limit} offset ${req.offset})`,
    ],
    page: `
      select ids.rank, ids.key, f.participant_id, ${REASONS_ARRAY} as reasons, ${SINCE} as since,
        ${SINCE_EXACT} as since_exact, a.days_behind,
        d.name as device_name, p.tablet_last_contact_at, c.created_at as last_contact_at, c.method, c.outcome,
        c.next_followup_on::text, ${identifiable}
      from ids
      join participant_followup f on f.participant_id = ids.participant_id
      join participants p on p.participant_id = ids.participant_id
      -- The days behind are kept where the grid reads them (the worklist's row holds only the
      -- reasons' facts, which do not change every day: drizzle 0031).
      join participant_adherence a on a.participant_id = ids.participant_id
      left join authorized_devices d on d.authorized_device_id = p.authorized_device_id
      left join lateral (
        select created_at, method, outcome, next_followup_on from participant_contacts pc
        where pc.participant_id = ids.participant_id order by pc.created_at desc, pc.contact_id desc limit 1
      ) c on true
    `,
    total: () => `select ${totalSql(req.reason)} as total`,
    audit: req.audit,
  });
}

type CountsRow = { total: number; last_check: string | null } & Record<FollowupReason, number>;
const readCounts = rowReader<CountsRow>()(['total', ...FOLLOWUP_REASONS, 'last_check']);

/**
 * The counts' statement: a fixed text, named and planned once with its generic plan, as the
 * page's is (its totals are the page's). The dashboard's follow-up card and the Follow-up page ask
 * for them, each every minute while open: planned on each request, they cost PGlite 6.6 ms of CPU
 * (2026-12-07).
 */
const COUNTS_SQL = `select ${totalSql(undefined)}, ${FOLLOWUP_REASONS.map((r) => totalSql(r)).join(', ')},
    (select max(run_date)::text from adherence_runs where finished_at is not null)`;

/** Participants on the worklist today, per reason (one may count under several). */
export async function worklistCounts(
  db: Database,
  clock: WorklistClock,
): Promise<{ total: number; reasons: Record<FollowupReason, number>; lastCheck: string | null }> {
  const rows = await arrayRows(
    db,
    { sql: COUNTS_SQL, params: baseParams(clock).slice(0, 3) },
    'followup.counts.v1',
    'generic',
  );
  const row = readCounts(rows![0]!);
  const reasons = Object.fromEntries(FOLLOWUP_REASONS.map((r) => [r, row[r]])) as Record<
    FollowupReason,
    number
  >;
  return { total: row.total, reasons, lastCheck: row.last_check ?? null };
}

const readReasons = rowReader<{ reasons: FollowupReason[] }>()(['reasons']);

/** The reasons that apply to one participant now (recorded with a contact, for the snooze rule). */
export async function currentReasons(
  db: Database,
  clock: WorklistClock,
  participantId: number,
): Promise<FollowupReason[]> {
  const rows = await arrayRows(db, {
    sql: `select ${REASONS_ARRAY} from participant_followup f where f.participant_id = $4::int`,
    params: [...baseParams(clock).slice(0, 3), participantId],
  });
  const row = rows?.[0];
  return (row && readReasons(row).reasons) ?? [];
}
