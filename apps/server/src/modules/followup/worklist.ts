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
import { arrayRows, rowReader, statementNamer } from '../../db/rows.js';
import { badRequest } from '../../lib/http-error.js';
import { type AuditActor, listReadAuditSql } from '../audit/index.js';

/**
 * The follow-up worklist's SQL (issue 31). Every reason is a range of one partial index of
 * participant_followup (drizzle 0013/0014), ordered by the time the reason's fact began, so a
 * page is at most one short index walk per reason: the unfiltered list is the reasons' walks in
 * urgency order (each row under its most urgent reason only), a filtered list the one walk.
 * Values are positional parameters: $1 the silent threshold, $2 the not-started threshold, $3
 * today (programme calendar); and for `since`, $4 the programme time zone, $5 the silent days.
 */
interface ReasonSql {
  /** The reason applies (a range of its index). */
  holds: string;
  /** Its order in the index: the time its fact began. */
  key: string;
  /** The time the reason itself began (for `since`). */
  began: string;
}

const REASON_SQL: Record<FollowupReason, ReasonSql> = {
  behind: { holds: 'f.behind_since is not null', key: 'f.behind_since', began: 'f.behind_since' },
  tablet_silent: {
    holds: 'f.silent_from <= $1::timestamptz',
    key: 'f.silent_from',
    began: 'f.silent_from + make_interval(days => $5::int)',
  },
  reminders_failing: {
    holds: 'f.failing_since is not null',
    key: 'f.failing_since',
    began: 'f.failing_since',
  },
  slightly_behind: {
    holds: 'f.slightly_since is not null',
    key: 'f.slightly_since',
    began: 'f.slightly_since',
  },
  programme_finished: {
    holds: 'f.finished_since is not null',
    key: 'f.finished_since',
    began: 'f.finished_since',
  },
  not_started: {
    holds: 'f.not_started_from <= $2::timestamptz',
    key: 'f.not_started_from',
    began: `f.not_started_from + interval '${FOLLOWUP_NOT_STARTED_DAYS} days'`,
  },
  // Days of the programme's calendar: the stretch holds today ($3). The key's range (its instant,
  // 00:00 of the first day in the programme's time zone, is before 00:00 UTC two days on in any
  // zone) bounds the index walk; the days decide.
  assessment_due: {
    holds: `f.assessment_due_from < ($3::date + 2)::timestamp at time zone 'UTC' and f.assessment_due_on <= $3::date and f.assessment_due_until >= $3::date`,
    key: 'f.assessment_due_from',
    began: 'f.assessment_due_from',
  },
};

const REASONS_ARRAY = `array_remove(array[${FOLLOWUP_REASONS.map(
  (r) => `case when ${REASON_SQL[r].holds} then '${r}' end`,
).join(', ')}]::text[], null)`;

const SINCE = `to_char((least(${FOLLOWUP_REASONS.map(
  (r) => `case when ${REASON_SQL[r].holds} then ${REASON_SQL[r].began} end`,
).join(', ')}) at time zone $4::text)::date, 'YYYY-MM-DD')`;

/**
 * How many are listed, without reading the listed rows: the reasons that do not depend on the time
 * of day from followup_tally (kept by triggers, drizzle 0014), plus the tablets silent and the not
 * started among those without such a reason, as index-only counts of their partial indexes (the two
 * never overlap: silence needs a device and a programme, not started is the lack of either), and
 * those with assessments due and none of the others, less the snoozed who have no new reason (a few rows, read through their own index). Each range is
 * written as its index's predicate, so that the planner reads the index alone.
 */
const TALLIED: Partial<Record<FollowupReason, true>> = {
  behind: true,
  slightly_behind: true,
  reminders_failing: true,
  programme_finished: true,
};
const tallied = (name: string) =>
  `(select coalesce(sum(delta), 0) from followup_tally where reason = '${name}')`;
const NONE_STATIC =
  'f.behind_since is null and f.slightly_since is null and f.failing_since is null and f.finished_since is null';
const SNOOZED_HIDDEN = (holds: string) =>
  `(select count(*) from participant_followup f where f.snoozed_until > $3::date and (${holds}) and ${REASONS_ARRAY} <@ f.snooze_reasons)`;

function totalSql(reason: FollowupReason | undefined): string {
  if (reason) {
    const listed = TALLIED[reason]
      ? tallied(reason)
      : `(select count(*) from participant_followup f where ${REASON_SQL[reason].holds})`;
    return `(${listed} - ${SNOOZED_HIDDEN(REASON_SQL[reason].holds)})::int`;
  }
  const anyReason = FOLLOWUP_REASONS.map((r) => REASON_SQL[r].holds).join(' or ');
  return `(${tallied('listed')}
    + (select count(*) from participant_followup f where f.silent_from <= $1::timestamptz and ${NONE_STATIC})
    + (select count(*) from participant_followup f where f.not_started_from <= $2::timestamptz and ${NONE_STATIC})
    + (select count(*) from participant_followup f where ${REASON_SQL.assessment_due.holds} and ${NONE_STATIC}
        and not coalesce(${REASON_SQL.tablet_silent.holds}, false) and not coalesce(${REASON_SQL.not_started.holds}, false))
    - ${SNOOZED_HIDDEN(anyReason)})::int`;
}

/** Folds the tally's rows into one per reason (the daily job, after the check). */
export async function foldFollowupTally(db: Database): Promise<void> {
  await db.execute(sql`
    with gone as (delete from followup_tally returning reason, delta)
    insert into followup_tally (reason, delta)
    select reason, sum(delta)::int from gone group by reason having sum(delta) <> 0`);
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

export interface WorklistCursor {
  rank: number;
  key: string;
  id: number;
}

export function encodeWorklistCursor(reason: FollowupReason | undefined, c: WorklistCursor): string {
  return Buffer.from(JSON.stringify([reason ?? null, c.rank, c.key, c.id])).toString('base64url');
}

export function decodeWorklistCursor(text: string, reason: FollowupReason | undefined): WorklistCursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw badRequest(messages.followup.cursorInvalid);
  }
  if (!Array.isArray(parsed) || parsed.length !== 4) throw badRequest(messages.followup.cursorInvalid);
  const [r, rank, key, id] = parsed as unknown[];
  if (
    r !== (reason ?? null) ||
    !Number.isInteger(rank) ||
    (rank as number) < 0 ||
    (rank as number) >= FOLLOWUP_REASONS.length ||
    (reason !== undefined && rank !== FOLLOWUP_REASONS.indexOf(reason)) ||
    typeof key !== 'string' ||
    key.length > 40 ||
    Number.isNaN(Date.parse(key)) ||
    !Number.isInteger(id) ||
    (id as number) < 1 ||
    (id as number) > 2147483647
  ) {
    throw badRequest(messages.followup.cursorInvalid);
  }
  return { rank: rank as number, key, id: id as number };
}

export interface WorklistRow {
  rank: number;
  key: Date;
  participant_id: number;
  reasons: FollowupReason[];
  since: string;
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
  const r = REASON_SQL[reason];
  const conditions = [r.holds, NOT_SNOOZED];
  if (exclusive) {
    for (const earlier of FOLLOWUP_REASONS.slice(0, rank))
      conditions.push(`not coalesce(${REASON_SQL[earlier].holds}, false)`);
  }
  if (cursor && cursor.rank === rank)
    conditions.push(`(${r.key}, f.participant_id) > (${cursor.key}::timestamptz, ${cursor.id}::int)`);
  return `(select f.participant_id, ${rank} as rank, ${r.key} as key from participant_followup f
    where ${conditions.join(' and ')} order by ${r.key}, f.participant_id limit ${limit})`;
}

/**
 * A name per page text, so that PostgreSQL plans it once per connection (planning was about a
 * third of the page's database CPU in the bench). The texts differ only by shape (reason filter,
 * cursor's reason, page size and offset, role, audit), every value is a parameter, and each range
 * is one the partial indexes answer for any value; the names are capped, as the grid's are, so no
 * request can make a connection hold statements without bound.
 */
const statementName = statementNamer('followup.page');

/** One statement: the total, the page's rows and (full access) the page's audit record. */
export async function worklistPage(
  db: Database,
  clock: WorklistClock,
  req: WorklistRequest,
): Promise<{ total: number; rows: WorklistRow[] }> {
  const query = worklistPageSql(clock, req);
  const rows = await arrayRows(db, query, statementName(query.sql));
  if (!rows) throw new Error('worklistPage needs the pool, not a transaction');
  const read = rows.map(readWorklistRow);
  const total = read[0]?.total ?? 0;
  return { total, rows: read.filter(isWorklistRow).map(({ total: _total, ...row }) => row) };
}

/**
 * A row of the page's statement: the total is on every row, and a page past the end still carries
 * it in one row whose other columns are null (so its rank is null).
 */
type WorklistStatementRow = { total: number } & (WorklistRow | { [K in keyof WorklistRow]: null });
const isWorklistRow = (row: WorklistStatementRow): row is { total: number } & WorklistRow =>
  row.rank !== null;

/** The page's columns in its select order. */
const readWorklistRow = rowReader<WorklistStatementRow>()([
  'total',
  'rank',
  'key',
  'participant_id',
  'reasons',
  'since',
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

/** The worklist page's statement and its values (also read by the bench's EXPLAIN). */
export function worklistPageSql(
  clock: WorklistClock,
  req: WorklistRequest,
): { sql: string; params: unknown[] } {
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
  const ctes = [
    `counted as (select ${totalSql(req.reason)} as total)`,
    `ids as (select * from (${walks}) u order by rank, key, participant_id limit ${req.limit} offset ${req.offset})`,
    `page as (
      select ids.rank, ids.key, f.participant_id, ${REASONS_ARRAY} as reasons, ${SINCE} as since, f.days_behind,
        d.name as device_name, p.tablet_last_contact_at, c.created_at as last_contact_at, c.method, c.outcome,
        c.next_followup_on::text, ${identifiable}
      from ids
      join participant_followup f on f.participant_id = ids.participant_id
      join participants p on p.participant_id = ids.participant_id
      left join authorized_devices d on d.authorized_device_id = p.authorized_device_id
      left join lateral (
        select created_at, method, outcome, next_followup_on from participant_contacts pc
        where pc.participant_id = ids.participant_id order by pc.created_at desc, pc.contact_id desc limit 1
      ) c on true
    )`,
  ];
  if (req.audit) {
    const insert = listReadAuditSql({
      action: 'followup.list',
      actor: req.audit.actor,
      rows: 'page',
      participantIds: 'array_agg(participant_id order by rank, key, participant_id)',
      detail: `${param(req.audit.detail)}::text`,
      param,
    });
    ctes.push(`audited as (${insert})`);
  }
  const text = `with ${ctes.join(', ')}
    select counted.total, page.* from counted left join page on true
    order by page.rank, page.key, page.participant_id`;
  return { sql: text, params };
}

type CountsRow = { total: number; last_check: string | null } & Record<FollowupReason, number>;
const readCounts = rowReader<CountsRow>()(['total', ...FOLLOWUP_REASONS, 'last_check']);

/** Participants on the worklist today, per reason (one may count under several). */
export async function worklistCounts(
  db: Database,
  clock: WorklistClock,
): Promise<{ total: number; reasons: Record<FollowupReason, number>; lastCheck: string | null }> {
  const text = `select ${totalSql(undefined)}, ${FOLLOWUP_REASONS.map((r) => totalSql(r)).join(', ')},
    (select max(run_date)::text from adherence_runs where finished_at is not null)`;
  const rows = await arrayRows(db, { sql: text, params: baseParams(clock).slice(0, 3) });
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
