import { and, asc, desc, eq, fillPlaceholders, or, sql, type Placeholder, type SQL } from 'drizzle-orm';
import {
  CONTACT_FIELDS,
  OPEN_FIELDS,
  SEARCHABLE_FIELDS,
  SORTABLE_FIELDS,
  limits,
  messages,
  participantField,
  type AdherenceState,
  type ParticipantSort,
  type ParticipantStatusFilter,
  type SortableField,
} from '@pathway/contract';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client.js';
import { lockRow } from '../../db/locked-row.js';
import { cursorCodec, cursorParts, pagedStatement, type PageParts } from '../../db/paged-statement.js';
import { participantCounts } from '../../db/participant-tally.js';
import { rowReader } from '../../db/rows.js';
import { columnsNamed, selectedKeys } from '../../db/select-rows.js';
import {
  authorizedDevices,
  participantAdherence,
  participants,
  participationProgress,
} from '../../db/schema.js';

/** participant_adherence.adherence, the generated class of days_behind. */
const ADHERENCE_CODE: Record<AdherenceState, 0 | 1 | 2> = { onTrack: 0, slightlybehind: 1, behind: 2 };

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

/** The participant's device, when one is assigned (a left join). */
const deviceOfParticipant = eq(authorizedDevices.authorized_device_id, participants.authorized_device_id);

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
    .leftJoin(authorizedDevices, deviceOfParticipant);
}
export type ParticipantRow = Awaited<ReturnType<typeof selectWithDevice>>[number];

/**
 * A row of the page as the driver returns it (values already typed, see arrayRows), named in the
 * order participantColumns selects them.
 */
const readParticipantRow = rowReader<ParticipantRow>()(selectedKeys(participantColumns));

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

/** The SQL types of the sorts' values: the cast of a cursor's value, and the cursor's check of it. */
const SORT_TYPES = {
  int: cursorParts.int(),
  text: cursorParts.text(500),
  date: cursorParts.date,
  timestamptz: cursorParts.timestamp,
} as const;

/** How the list is ordered by one sort, then by participant_id. */
export interface SortKey {
  /** What the page is ordered by (an index on it and participant_id); none: participant_id alone. */
  expression?: AnyPgColumn | SQL;
  type: keyof typeof SORT_TYPES;
  /** A row's value, as its cursor carries it. */
  valueOf: (row: ParticipantRow) => number | string;
}

const NEVER_CONTACTED = '1970-01-01T00:00:00.000Z';

/** A sortable field of the table: its column, a date for a date field and text for any other. */
function fieldSortKey(name: SortableField): SortKey {
  const field = participantField(name);
  if (field.answer?.type === 'boolean') throw new Error(`The yes/no field ${name} cannot sort the list`);
  return {
    expression: participants[name],
    type: field.form?.input === 'date' ? 'date' : 'text',
    valueOf: (row) => row[name],
  };
}

/**
 * Every sort of the contract: the computed ones, and the fields the field table marks sortable
 * (sort-and-search.test.ts ties each to an index that pages it).
 */
export const SORT_KEYS: Readonly<Record<ParticipantSort, SortKey>> = {
  participant_id: { type: 'int', valueOf: (row) => row.participant_id },
  days_behind: {
    expression: participantAdherence.days_behind,
    type: 'int',
    valueOf: (row) => row.days_behind,
  },
  // Never in contact sorts as the oldest contact (the index is on this expression).
  tablet_last_contact_at: {
    expression: sql`coalesce(${participants.tablet_last_contact_at}, '1970-01-01T00:00:00Z'::timestamptz)`,
    type: 'timestamptz',
    valueOf: (row) => row.tablet_last_contact_at?.toISOString() ?? NEVER_CONTACTED,
  },
  ...(Object.fromEntries(SORTABLE_FIELDS.map((name) => [name, fieldSortKey(name)])) as Record<
    SortableField,
    SortKey
  >),
};

/** A grid row's place in its order: its value in the sort column, and its id. */
export interface ParticipantCursor {
  value: number | string;
  id: number;
}

/** A cursor belongs to its sort and order. */
export const participantCursor = cursorCodec<ListOrder, ParticipantCursor>({
  refusal: messages.participant.cursorInvalid,
  of: (order) => [order.sort, order.order],
  at: (order) => ({ value: SORT_TYPES[SORT_KEYS[order.sort].type], id: cursorParts.id }),
});

/** The place a row's cursor carries. */
export function participantPositionOf(order: ListOrder, row: ParticipantRow): ParticipantCursor {
  return { value: SORT_KEYS[order.sort].valueOf(row), id: row.participant_id };
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
 * placeholder of that name when the text is built once per shape (see page). A new filter is a
 * key of ListFilter, its condition here and its part of PageShape.
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
    // The fields the field table marks searchable, an identifiable one only for full access.
    for (const name of SEARCHABLE_FIELDS) {
      if (participantField(name).access === 'identifiable' && !filter.searchIdentifiable) continue;
      matches.push(sql`${participants[name]} ilike ${pattern}`);
    }
    // A name as written in full ("Ann Smith").
    if (filter.searchIdentifiable)
      matches.push(sql`(${participants.first_name} || ' ' || ${participants.last_name}) ilike ${pattern}`);
    conditions.push(or(...matches)!);
  }
  return conditions;
}

/** The keyset condition of a cursor, its value and id as the placeholders cursorValue and cursorId. */
function keysetCondition(order: ListOrder, id: IdColumn): SQL {
  const after = order.order === 'asc' ? sql`>` : sql`<`;
  const cursorId = sql.placeholder('cursorId');
  const key = SORT_KEYS[order.sort];
  if (!key.expression) return sql`${id} ${after} ${cursorId}`;
  const value = sql`${sql.placeholder('cursorValue')}${sql.raw(`::${key.type}`)}`;
  // A row comparison walks the (column, participant_id) index from the cursor on.
  return sql`(${key.expression}, ${id}) ${after} (${value}, ${cursorId})`;
}

/**
 * Everything that changes a page query's text, and nothing else: pages of the same shape differ
 * only in their values.
 */
interface PageShape {
  sort: ParticipantSort;
  order: 'asc' | 'desc';
  /** Read from the other end of the index (a page in the second half, see page). */
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
   * start of its range (no offset, not reversed); otherwise a parameter. See participantPage.
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
 * 6 sorts x 2 orders x 2 ends x 2 x 3 x 2 x 2 x 2 = 1,152), built on first use, as building one is
 * a share of the page's CPU worth saving; filling in the values is a map over a dozen parameters.
 * The text is the same for PGlite and PostgreSQL (both Drizzle's pg dialect).
 */
const pageQueries = new Map<string, { sql: string; params: unknown[] }>();

/** The page query of a shape; `filter` is one of that shape (its values do not enter the text). */
function pageQueryOf(db: Database, shape: PageShape, filter: ListFilter) {
  const key = Object.values(shape).join(' ');
  let built = pageQueries.get(key);
  if (!built) {
    built = pageQuery(db, shape, filter).toSQL();
    pageQueries.set(key, built);
  }
  return built;
}

/**
 * The page query of a shape. Its values are the placeholders of the filter's conditions and
 * cursorId, cursorValue, limit and offset.
 */
function pageQuery(db: Database, shape: PageShape, filter: ListFilter) {
  const column = SORT_KEYS[shape.sort].expression;
  const source = idSourceOf(shape);
  const id: IdColumn =
    source === 'adherence' ? participantAdherence.participant_id : participants.participant_id;
  const orderingIn = (direction: 'asc' | 'desc', by: IdColumn) => {
    const dir = direction === 'asc' ? asc : desc;
    return column ? [dir(column), dir(by)] : [dir(by)];
  };
  const ordering = orderingIn(shape.order, participants.participant_id);
  const conditions = filterConditions(filter, asPlaceholder, id);
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
    // each row with its participant_adherence row. The ids are one array (an InitPlan), so each
    // row is a primary-key probe: as `in (subquery)` the planner may join the page to a scan of
    // every participant instead, which it prefers under the row-level-security policies (the
    // policy of participant_adherence makes that table's scan dearer, not participants').
    const page = db
      .select({ id })
      .from(participants)
      .where(and(...conditions))
      .orderBy(...idOrdering)
      .limit(limit)
      .offset(offset);
    return selectWithDevice(db, columns)
      .where(sql`${participants.participant_id} = any(array(${page}))`)
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
  // (each a join to plan and an index probe a row).
  const ids = page.as('page_ids');
  const dir = shape.order === 'asc' ? asc : desc;
  return db
    .select({ ...columns, days_behind: ids.days_behind })
    .from(participants)
    .innerJoin(ids, eq(ids.id, participants.participant_id))
    .leftJoin(authorizedDevices, deviceOfParticipant)
    .orderBy(
      ...(shape.sort === 'days_behind' ? [dir(ids.days_behind), dir(participants.participant_id)] : ordering),
    );
}

/**
 * The grid's page statement: a page of the console's size is named, so that PostgreSQL prepares it
 * once per connection instead of parsing and planning it on every page (planning was a large share
 * of PostgreSQL's CPU per page). The size is in the text because a generic plan of `limit $n`
 * assumes a tenth of the table and reads it all (a hash join over every participant); with `limit
 * 100` the generic plan is the custom one's index walk, and PostgreSQL still keeps planning each
 * execution when it estimates its custom plans cheaper. Other pages (other sizes, offsets, reversed
 * reads) stay unnamed.
 */
const participantPage = pagedStatement({
  name: 'participants.page',
  read: readParticipantRow,
  auditAction: 'participant.list',
});

/** A page of the list (see ParticipantRepository.page). */
export interface PageRequest {
  filter: ListFilter;
  order: ListOrder;
  limit: number;
  /** Rows skipped (without a cursor). */
  offset: number;
  /** The page starts right after this row. */
  cursor?: ParticipantCursor;
  /** The list's size, when the caller knows it: a page in the second half is read from the end. */
  total?: number;
  /**
   * A full-access read's audit record (`participant.list`, every participant id of the page in
   * page order), written by the page's own statement when it returns rows.
   */
  audit?: PageParts['audit'];
  /** Read the total from the tally in the same statement (a list without a search). */
  withTotal?: boolean;
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
   * One page in (sort column, participant_id) order, in one statement. With a cursor the page
   * starts right after it (an index range, as fast on page 900 as on page 1). Without, the offset
   * is taken over the index alone and only the page's own rows are read; when the `total` is known
   * and the page lies in the second half, the index is walked from its other end, so a jump to
   * page 900 of 1,000 skips 10,000 entries instead of 89,900 (and the last page is as cheap as the
   * first). The same statement writes the read's audit record and, with `withTotal` and no search,
   * reads the total from the tally (every participant, or those with a programme in one adherence
   * class), which it then returns.
   */
  async page(req: PageRequest): Promise<{ rows: ParticipantRow[]; total?: number }> {
    const { filter, order, limit, offset, cursor, total } = req;
    let reversed = false;
    let idLimit = limit;
    let idOffset = cursor ? 0 : offset;
    if (!cursor && total !== undefined && offset + limit / 2 > total / 2) {
      if (offset >= total) return { rows: [] };
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
    const page = pageQueryOf(this.db, shape, filter);
    const statement = participantPage.compose({
      params: fillPlaceholders(page.params, values),
      page: page.sql,
      audit: req.audit,
      total:
        req.withTotal && !q
          ? (param) => {
              const where: string[] = [];
              if (filter.state) {
                where.push(`adherence = ${param(ADHERENCE_CODE[filter.state])}::int and with_programme`);
              }
              if (filter.status !== 'all') where.push(`status = ${param(filter.status)}::text`);
              const which = where.length > 0 ? ` where ${where.join(' and ')}` : '';
              return `select coalesce(sum(delta), 0)::int as total from participant_tally${which}`;
            }
          : undefined,
    });
    return participantPage.run(this.db, statement, shape.literalLimit !== undefined);
  }

  async findById(id: number, db: Database = this.db): Promise<ParticipantRow | null> {
    const [row] = await this.withDevice(db).where(eq(participants.participant_id, id));
    return row ?? null;
  }
}

/** The participant's row, locked for the rest of the transaction; a 404 when there is none. */
export function lockParticipant(tx: Database, id: number) {
  return lockRow(tx, participants, eq(participants.participant_id, id), messages.participant.notFound);
}
