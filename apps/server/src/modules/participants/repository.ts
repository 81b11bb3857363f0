import {
  and,
  asc,
  desc,
  eq,
  fillPlaceholders,
  inArray,
  or,
  sql,
  type Placeholder,
  type SQL,
} from 'drizzle-orm';
import {
  CONTACT_FIELDS,
  OPEN_FIELDS,
  isIsoDate,
  limits,
  messages,
  type AdherenceState,
  type ParticipantSort,
  type ParticipantStatusFilter,
} from '@pathway/contract';
import type { Database } from '../../db/client.js';
import { participantCounts } from '../../db/participant-tally.js';
import { arrayRows, rowReader, statementNamer } from '../../db/rows.js';
import { columnsNamed, selectedKeys } from '../../db/select-rows.js';
import {
  authorizedDevices,
  participantAdherence,
  participants,
  participationProgress,
} from '../../db/schema.js';
import { badRequest } from '../../lib/http-error.js';
import { type AuditActor, listReadAuditSql } from '../audit/index.js';

/** participant_adherence.adherence, the generated class of days_behind. */
const ADHERENCE_CODE: Record<AdherenceState, 0 | 1 | 2> = { onTrack: 0, slightlybehind: 1, behind: 2 };

const SORT_COLUMNS = {
  participant_id: participants.participant_id,
  days_behind: participantAdherence.days_behind,
  first_name: participants.first_name,
  last_name: participants.last_name,
  date_of_birth: participants.date_of_birth,
  // Never in contact sorts as the oldest contact (the index is on this expression).
  tablet_last_contact_at: sql`coalesce(${participants.tablet_last_contact_at}, '1970-01-01T00:00:00Z'::timestamptz)`,
} as const;

const NEVER_CONTACTED = '1970-01-01T00:00:00.000Z';

/** A participant id column: participants' own, or participant_adherence's (see idSourceOf). */
type IdColumn = typeof participants.participant_id | typeof participantAdherence.participant_id;

/**
 * Only a participant with a programme has an adherence state: one without is 0 days behind by
 * default, which would otherwise list them as "on track" (and disagree with the dashboard's cards,
 * which count participants with a programme only). The unique progress index answers it.
 */
const hasProgrammeOf = (id: IdColumn) =>
  sql`exists (select 1 from ${participationProgress} pp where pp.participant_id = ${id})`;
const hasProgramme = hasProgrammeOf(participants.participant_id);

/**
 * Only what the presenter shows: the participant answer's fields of the contract's field table
 * (referral fields have their own route) and what the answer computes from. Every value read
 * costs (in PGlite most of a page's time goes to decoding rows, not to finding them).
 */
export const participantColumns = {
  participant_id: participants.participant_id,
  site_id: participants.site_id,
  ...columnsNamed(participants, OPEN_FIELDS),
  days_behind: participantAdherence.days_behind,
  push_notification_id: participants.push_notification_id,
  purge_cache: participants.purge_cache,
  created_at: participants.created_at,
  updated_at: participants.updated_at,
  tablet_last_contact_at: participants.tablet_last_contact_at,
  device_uuid: authorizedDevices.uuid,
  device_name: authorizedDevices.name,
  has_programme: sql<boolean>`${hasProgramme}`,
  status: participants.status,
  discharged_on: participants.discharged_on,
  discharge_reason: participants.discharge_reason,
  ...columnsNamed(participants, CONTACT_FIELDS),
};

/**
 * A page filtered by adherence state holds only participants with a programme (the filter asks
 * for one): the check is not made a second time for each row.
 */
const filteredByStateColumns = { ...participantColumns, has_programme: sql<boolean>`true` };

/**
 * participantColumns read through the device join (and the days-behind row every participant has):
 * the type of a grid row and of the participant view, inferred from the selection (the join makes
 * the device's columns nullable).
 */
function selectWithDevice(db: Database, columns = participantColumns) {
  return db
    .select(columns)
    .from(participants)
    .innerJoin(participantAdherence, eq(participantAdherence.participant_id, participants.participant_id))
    .leftJoin(
      authorizedDevices,
      eq(authorizedDevices.authorized_device_id, participants.authorized_device_id),
    );
}
export type ParticipantRow = Awaited<ReturnType<typeof selectWithDevice>>[number];

/**
 * A row of the page as the driver returns it (values already typed, see arrayRows), named in the
 * order participantColumns selects them. The page's statement with its total (composedPage)
 * starts each row with the total.
 */
const readParticipantRow = rowReader<ParticipantRow>()(selectedKeys(participantColumns));
const readTotal = rowReader<{ total: number }>()(['total']);

export interface ListFilter {
  state?: AdherenceState;
  /** One status (active by default in the grid), or every participant. */
  status: ParticipantStatusFilter;
  q?: string;
  /** Whether the search may look at identifiable fields (full access). */
  searchIdentifiable: boolean;
}

export interface ListOrder {
  sort: ParticipantSort;
  order: 'asc' | 'desc';
}

interface Cursor {
  value: number | string;
  id: number;
}

/** A row's value in the sort column, as a keyset cursor carries it. */
export function sortValueOf(order: ListOrder, row: ParticipantRow): number | string {
  if (order.sort === 'participant_id') return row.participant_id;
  if (order.sort === 'tablet_last_contact_at')
    return row.tablet_last_contact_at?.toISOString() ?? NEVER_CONTACTED;
  return row[order.sort];
}

/**
 * Cursors are opaque to the client: the sort they belong to and the last row's sort value and id.
 * A cursor of another sort (or a forged one) is refused rather than silently misread.
 */
export function encodeCursor(order: ListOrder, row: ParticipantRow): string {
  const value = sortValueOf(order, row);
  return Buffer.from(JSON.stringify([order.sort, order.order, value, row.participant_id])).toString(
    'base64url',
  );
}

export function decodeCursor(text: string, order: ListOrder): Cursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw badRequest(messages.participant.cursorInvalid);
  }
  if (!Array.isArray(parsed) || parsed.length !== 4) throw badRequest(messages.participant.cursorInvalid);
  const [sort, dir, value, id] = parsed as unknown[];
  const numeric = order.sort === 'participant_id' || order.sort === 'days_behind';
  const valueOk = numeric
    ? Number.isInteger(value) && Math.abs(value as number) <= 2147483647
    : typeof value === 'string' &&
      value.length <= 500 &&
      (order.sort !== 'date_of_birth' || isIsoDate(value)) &&
      (order.sort !== 'tablet_last_contact_at' || !Number.isNaN(Date.parse(value)));
  if (
    sort !== order.sort ||
    dir !== order.order ||
    !valueOk ||
    !Number.isInteger(id) ||
    (id as number) < 0 ||
    (id as number) > 2147483647
  ) {
    throw badRequest(messages.participant.cursorInvalid);
  }
  return { value: value as number | string, id: id as number };
}

function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** A value's place in a query: the value itself, or a placeholder of that name. */
type Bind = <T>(name: string, value: T) => T | Placeholder;
const asValue: Bind = (_name, value) => value;
const asPlaceholder: Bind = (name) => sql.placeholder(name);

/**
 * The conditions of a filter. `bind` gives each value's place in the SQL: the value itself, or a
 * placeholder of that name when the text is built once per shape (pageRecorded).
 */
function filterConditions(
  filter: ListFilter,
  bind: Bind = asValue,
  id: IdColumn = participants.participant_id,
): SQL[] {
  const conditions: SQL[] = [];
  // participants_status_idx (status, participant_id): the default page is an index range.
  if (filter.status !== 'all') conditions.push(eq(participants.status, bind('status', filter.status)));
  if (filter.state)
    conditions.push(
      eq(participantAdherence.adherence, bind('state', ADHERENCE_CODE[filter.state])),
      hasProgrammeOf(id),
    );
  const q = filter.q?.trim();
  if (q) {
    const pattern = bind('pattern', likePattern(q));
    const matches: SQL[] = [
      sql`exists (select 1 from ${authorizedDevices} d where d.authorized_device_id = ${participants.authorized_device_id}
        and (d.uuid ilike ${pattern} or d.name ilike ${pattern}))`,
    ];
    if (/^\d{1,9}$/.test(q)) matches.push(eq(participants.participant_id, bind('qId', Number(q))));
    if (filter.searchIdentifiable) {
      matches.push(
        sql`${participants.first_name} ilike ${pattern}`,
        sql`${participants.last_name} ilike ${pattern}`,
        sql`(${participants.first_name} || ' ' || ${participants.last_name}) ilike ${pattern}`,
        sql`${participants.email} ilike ${pattern}`,
        sql`${participants.phone_number} ilike ${pattern}`,
      );
    }
    conditions.push(or(...matches)!);
  }
  return conditions;
}

/** The keyset condition of a cursor, its value and id as the placeholders cursorValue and cursorId. */
function keysetCondition(order: ListOrder, id: IdColumn): SQL {
  const after = order.order === 'asc' ? sql`>` : sql`<`;
  const cursorId = sql.placeholder('cursorId');
  if (order.sort === 'participant_id') return sql`${id} ${after} ${cursorId}`;
  const column = SORT_COLUMNS[order.sort];
  const cursorValue = sql.placeholder('cursorValue');
  const value =
    order.sort === 'days_behind'
      ? sql`${cursorValue}::int`
      : order.sort === 'date_of_birth'
        ? sql`${cursorValue}::date`
        : order.sort === 'tablet_last_contact_at'
          ? sql`${cursorValue}::timestamptz`
          : sql`${cursorValue}::text`;
  // A row comparison walks the (column, participant_id) index from the cursor on.
  return sql`(${column}, ${id}) ${after} (${value}, ${cursorId})`;
}

/**
 * Everything that changes a page query's text, and nothing else: pages of the same shape differ
 * only in their values.
 */
interface PageShape {
  sort: ParticipantSort;
  order: 'asc' | 'desc';
  /** Read from the other end of the index (a page in the second half, see pageRecorded). */
  reversed: boolean;
  state: boolean;
  /** A status filter (anything but all): it reads participants, so never participant_adherence alone. */
  status: boolean;
  /** No search, a search, or a search that may also be a participant id. */
  search: 'none' | 'text' | 'id';
  searchIdentifiable: boolean;
  cursor: boolean;
  /** An offset other than 0 (Drizzle writes none for 0). */
  offset: boolean;
  /**
   * The page size written into the text, for a page of one of the console's sizes read from the
   * start of its range (no offset, not reversed); otherwise a parameter. See statementName.
   */
  literalLimit: number | undefined;
}

/**
 * Where a page's ids come from. participants has no days_behind: a page sorted by it or filtered
 * by adherence state reads participant_adherence, alone when nothing else is asked of participants
 * (its (days_behind, id) or (adherence, id) index is then the page, an index range as before), or
 * joined to participants for a search or another sort column.
 */
function idSourceOf(shape: PageShape): 'participants' | 'adherence' | 'joined' {
  const needsAdherence = shape.sort === 'days_behind' || shape.state;
  if (!needsAdherence) return 'participants';
  const adherenceAlone =
    shape.search === 'none' &&
    !shape.status &&
    (shape.sort === 'days_behind' || shape.sort === 'participant_id');
  return adherenceAlone ? 'adherence' : 'joined';
}

/**
 * Page queries as Drizzle builds them, with placeholders for their values: one per shape (at most
 * 6 sorts x 2 orders x 2 ends x 2 x 3 x 2 x 2 x 2 = 1,152), built on first use. Building the query was
 * about 10 % of the grid page's server CPU (issue 14); filling in the values is a map over a
 * dozen parameters. The text is the same for PGlite and PostgreSQL (both Drizzle's pg dialect).
 */
const pageQueries = new Map<string, { sql: string; params: unknown[] }>();

function pageQueryOf(db: Database, shape: PageShape) {
  const key = `${shape.sort} ${shape.order} ${shape.reversed} ${shape.state} ${shape.status} ${shape.search} ${shape.searchIdentifiable} ${shape.cursor} ${shape.offset} ${shape.literalLimit}`;
  let built = pageQueries.get(key);
  if (!built) {
    built = pageQuery(db, shape, asPlaceholder).toSQL();
    pageQueries.set(key, built);
  }
  return built;
}

/**
 * The page query of a shape. Its values come from `bind` (the filter's) and the placeholders
 * cursorId, cursorValue, limit and offset; the filter's own values only matter for their shape.
 */
function pageQuery(db: Database, shape: PageShape, bind: Bind) {
  const column = SORT_COLUMNS[shape.sort];
  const source = idSourceOf(shape);
  const id: IdColumn =
    source === 'adherence' ? participantAdherence.participant_id : participants.participant_id;
  const orderingIn = (direction: 'asc' | 'desc', by: IdColumn) => {
    const dir = direction === 'asc' ? asc : desc;
    return shape.sort === 'participant_id' ? [dir(by)] : [dir(column), dir(by)];
  };
  const ordering = orderingIn(shape.order, participants.participant_id);
  const filter: ListFilter = {
    state: shape.state ? 'onTrack' : undefined,
    status: shape.status ? 'active' : 'all',
    q: shape.search === 'none' ? undefined : shape.search === 'id' ? '1' : 'x',
    searchIdentifiable: shape.searchIdentifiable,
  };
  const conditions = filterConditions(filter, bind, id);
  if (shape.cursor) conditions.push(keysetCondition(shape, id));
  const idOrdering = orderingIn(shape.reversed ? (shape.order === 'asc' ? 'desc' : 'asc') : shape.order, id);
  // Drizzle writes an SQL chunk where it would write a placeholder; its types only name the latter.
  const limit =
    shape.literalLimit === undefined
      ? sql.placeholder('limit')
      : (sql.raw(String(shape.literalLimit)) as unknown as ReturnType<typeof sql.placeholder<'limit'>>);
  const offset = shape.offset ? sql.placeholder('offset') : 0;
  const columns = shape.state ? filteredByStateColumns : participantColumns;
  if (source === 'participants') {
    // The page's ids from participants' own indexes (an offset skips index entries only), then
    // each row with its participant_adherence row.
    const page = db
      .select({ id })
      .from(participants)
      .where(and(...conditions))
      .orderBy(...idOrdering)
      .limit(limit)
      .offset(offset);
    return selectWithDevice(db, columns)
      .where(inArray(participants.participant_id, page))
      .orderBy(...ordering);
  }
  const selection = { id, days_behind: participantAdherence.days_behind };
  const page = (
    source === 'adherence'
      ? db.select(selection).from(participantAdherence).$dynamic()
      : db
          .select(selection)
          .from(participants)
          .innerJoin(
            participantAdherence,
            eq(participantAdherence.participant_id, participants.participant_id),
          )
          .$dynamic()
  )
    .where(and(...conditions))
    .orderBy(...idOrdering)
    .limit(limit)
    .offset(offset);
  // The ids came with their days_behind: the rows need no second look-up of participant_adherence
  // (each a join to plan and an index probe a row; about 1.5 ms of PostgreSQL CPU a page).
  const ids = page.as('page_ids');
  const dir = shape.order === 'asc' ? asc : desc;
  return db
    .select({ ...columns, days_behind: ids.days_behind })
    .from(participants)
    .innerJoin(ids, eq(ids.id, participants.participant_id))
    .leftJoin(
      authorizedDevices,
      eq(authorizedDevices.authorized_device_id, participants.authorized_device_id),
    )
    .orderBy(
      ...(shape.sort === 'days_behind' ? [dir(ids.days_behind), dir(participants.participant_id)] : ordering),
    );
}

/**
 * A full-access page's audit record, written by the page's own statement when it returns rows:
 * `participant.list` with every participant id of the page, in page order, and the detail
 * `${detailBefore}${n} row(s)${detailAfter}`.
 */
export interface ListAudit {
  actor: AuditActor;
  detailBefore: string;
  detailAfter: string;
}

/**
 * The page query wrapped so that the same statement also inserts the page's audit event (`audit`)
 * and reads the total from the tally (`tally`: every participant, or those with a programme in one
 * adherence class). With the total each row starts with it, and an empty page is one row whose
 * participant columns are null. The page's first column is participant_id (participantColumns).
 * A CTE used twice is read once, in its own order; the one-row `counted` is the outer side of a
 * join on true, so the page's rows follow it in their order.
 */
function composedPage(
  page: { sql: string; params: unknown[] },
  audit: ListAudit | undefined,
  tally: { adherence: 'all' | 0 | 1 | 2; status: ParticipantStatusFilter } | undefined,
) {
  const params = [...page.params];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const ctes = [`page as (${page.sql})`];
  if (audit) {
    const detail = `${param(audit.detailBefore)}::text || count(*)::text || case when count(*) = 1 then ' row' else ' rows' end
          || ${param(audit.detailAfter)}::text`;
    const insert = listReadAuditSql({
      action: 'participant.list',
      actor: audit.actor,
      rows: 'page',
      participantIds: 'array_agg(participant_id)',
      detail,
      param,
    });
    ctes.push(`audited as (${insert})`);
  }
  if (tally === undefined) return { sql: `with ${ctes.join(', ')} select * from page`, params };
  const where: string[] = [];
  if (tally.adherence !== 'all') where.push(`adherence = ${param(tally.adherence)}::int and with_programme`);
  if (tally.status !== 'all') where.push(`status = ${param(tally.status)}::text`);
  const which = where.length > 0 ? ` where ${where.join(' and ')}` : '';
  ctes.push(`counted as (select coalesce(sum(delta), 0)::int as total from participant_tally${which})`);
  return {
    sql: `with ${ctes.join(', ')} select counted.total, page.* from counted left join page on true`,
    params,
  };
}

/**
 * A name for the page statement of a console page size (with or without its audit record and
 * total), so that PostgreSQL prepares it once per connection instead of parsing and planning it on
 * every page: planning was a third of PostgreSQL's CPU per grid page (perf, issue 14). The size is
 * in the text because a generic plan of `limit $n` assumes a tenth of the table and reads it
 * all (a hash join over every participant); with `limit 100` the generic plan is the custom one's
 * index walk, and PostgreSQL still keeps planning each execution when it estimates its custom
 * plans cheaper. Other pages (other sizes, offsets, reversed reads) stay unnamed, and the names
 * are capped, so no request can make a connection hold statements without bound.
 */
const namePageStatement = statementNamer('participants.page');

function statementName(shape: PageShape, text: string): string | undefined {
  return shape.literalLimit === undefined ? undefined : namePageStatement(text);
}

export class ParticipantRepository {
  constructor(private readonly db: Database) {}

  private withDevice(db: Database = this.db, columns = participantColumns) {
    return selectWithDevice(db, columns);
  }

  async count(filter: ListFilter): Promise<number> {
    if (!filter.q?.trim()) {
      // Without a search the total comes from the tally, not from counting every participant.
      const { all, withProgramme } = await participantCounts(this.db, filter.status);
      return filter.state ? withProgramme[ADHERENCE_CODE[filter.state]] : all[0] + all[1] + all[2];
    }
    const all = this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(participants)
      .$dynamic();
    // The state filter reads the class from participant_adherence; a search alone needs no join.
    const counted = filter.state
      ? all.innerJoin(
          participantAdherence,
          eq(participantAdherence.participant_id, participants.participant_id),
        )
      : all;
    const [row] = await counted.where(and(...filterConditions(filter)));
    return row!.n;
  }

  /**
   * One page in (sort column, participant_id) order. With a cursor the page starts right after it
   * (an index range, as fast on page 900 as on page 1). Without, the offset is taken over the index
   * alone and only the page's own rows are read; when the `total` is known and the page lies in
   * the second half, the index is walked from its other end, so a jump to page 900 of 1,000
   * skips 10,000 entries instead of 89,900 (and the last page is as cheap as the first). With
   * `audit`, the page's audit record is written by the same statement when it can be (`audited`);
   * with `withTotal` and no search, the same statement reads the tally's total too (`total`).
   */
  async pageRecorded(
    filter: ListFilter,
    order: ListOrder,
    limit: number,
    offset: number,
    cursor?: Cursor,
    total?: number,
    audit?: ListAudit,
    withTotal = false,
  ): Promise<{ rows: ParticipantRow[]; audited: boolean; total?: number }> {
    let reversed = false;
    let idLimit = limit;
    let idOffset = cursor ? 0 : offset;
    if (!cursor && total !== undefined && offset + limit / 2 > total / 2) {
      if (offset >= total) return { rows: [], audited: false };
      reversed = true;
      // Rows offset..offset+limit-1 counted from the start are these, counted from the end.
      const fromEnd = total - offset - limit;
      idLimit = fromEnd < 0 ? limit + fromEnd : limit;
      idOffset = Math.max(0, fromEnd);
    }
    const q = filter.q?.trim();
    const shape: PageShape = {
      sort: order.sort,
      order: order.order,
      reversed,
      state: filter.state !== undefined,
      status: filter.status !== 'all',
      search: !q ? 'none' : /^\d{1,9}$/.test(q) ? 'id' : 'text',
      searchIdentifiable: filter.searchIdentifiable,
      cursor: cursor !== undefined,
      offset: idOffset > 0,
      literalLimit:
        idOffset === 0 && !reversed && limits.participantsPageSizes.includes(idLimit) ? idLimit : undefined,
    };
    // The filter's values by name, as filterConditions binds them.
    const values: Record<string, unknown> = { limit: idLimit, offset: idOffset };
    filterConditions(filter, (name, value) => {
      values[name] = value;
      return value;
    });
    if (cursor) Object.assign(values, { cursorId: cursor.id, cursorValue: cursor.value });
    // Built by Drizzle once per shape, run by the driver: the rows are read without Drizzle's
    // per-value mapping.
    const page = pageQueryOf(this.db, shape);
    const built = { sql: page.sql, params: fillPlaceholders(page.params, values) };
    // The read's audit record goes in with the read itself: one statement, so one round trip
    // and one commit, and no page is ever read without its record. So does the tally's total
    // when asked for (a first or cursor page without a search).
    const tally =
      !withTotal || filter.q?.trim()
        ? undefined
        : {
            adherence: filter.state ? ADHERENCE_CODE[filter.state] : ('all' as const),
            status: filter.status,
          };
    if (tally !== undefined) {
      const composed = composedPage(built, audit, tally);
      const rows = await arrayRows(this.db, composed, statementName(shape, composed.sql));
      if (rows) {
        const total = rows.length > 0 ? readTotal(rows[0]!).total : 0;
        // An empty page is one row of the total whose participant columns are null.
        const pageRows = rows.filter((r) => r[1] !== null).map((r) => readParticipantRow(r.slice(1)));
        return { rows: pageRows, audited: audit !== undefined, total };
      }
    } else {
      const query = audit ? composedPage(built, audit, undefined) : built;
      const rows = await arrayRows(this.db, query, statementName(shape, query.sql));
      if (rows) return { rows: rows.map(readParticipantRow), audited: audit !== undefined };
    }
    // A transaction has no driver of its own: Drizzle runs the same query, values filled in.
    const rows = await pageQuery(this.db, shape, asPlaceholder).execute(values);
    return { rows, audited: false };
  }

  /** A page (see pageRecorded) with no audit record. */
  async page(
    filter: ListFilter,
    order: ListOrder,
    limit: number,
    offset: number,
    cursor?: Cursor,
    total?: number,
  ): Promise<ParticipantRow[]> {
    return (await this.pageRecorded(filter, order, limit, offset, cursor, total)).rows;
  }

  async findById(id: number, db: Database = this.db): Promise<ParticipantRow | null> {
    const [row] = await this.withDevice(db).where(eq(participants.participant_id, id));
    return row ?? null;
  }

  /** Locks the participant row for the rest of the transaction. */
  async lock(tx: Database, id: number) {
    const [row] = await tx
      .select()
      .from(participants)
      .where(eq(participants.participant_id, id))
      .for('update');
    return row ?? null;
  }
}
