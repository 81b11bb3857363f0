import { isIsoDate, type AuditAction } from '@pathway/contract';
import { type AuditActor, listReadAuditSql } from '../modules/audit/index.js';
import type { Database } from './client.js';
import { arrayRows, rowReader, statementNamer } from './rows.js';
import type { PlanChoice } from './scope.js';

/**
 * One way to read a page of a long list (the participants grid, the follow-up worklist): a keyset
 * cursor written, read and checked by one codec per list; and one statement per page that reads
 * the rows, writes the read's audit record (full access) and reads the list's total, named so that
 * PostgreSQL plans it once per connection. A list brings what only it knows: the page's SQL, the
 * SQL of its total, how a cursor ties to its sort or filter and which values place a row.
 */

// ---- Cursors -------------------------------------------------------------------------------

/** A check of one value of a cursor: true when the statement can take it as it is. */
export type CursorPart<T> = (value: unknown) => value is T;

const INT_MAX = 2147483647;

/**
 * The checks a cursor's values pass before they reach SQL. Each refuses what its SQL type would
 * refuse (a failed cast is a 5xx, and a cursor is the client's text), not only what is malformed.
 */
export const cursorParts = {
  /** An integer of PostgreSQL's int, within [min, max]. */
  int:
    (min = -INT_MAX - 1, max = INT_MAX): CursorPart<number> =>
    (value): value is number =>
      Number.isInteger(value) && (value as number) >= min && (value as number) <= max,
  /** A row's id (a serial: 1 and up). */
  id: ((value): value is number =>
    Number.isInteger(value) && (value as number) >= 1 && (value as number) <= INT_MAX) as CursorPart<number>,
  /** Text of at most `max` characters that PostgreSQL's text type can hold (no NUL). */
  text:
    (max: number): CursorPart<string> =>
    (value): value is string =>
      typeof value === 'string' && value.length <= max && !value.includes('\u0000'),
  /** A calendar date, YYYY-MM-DD. */
  date: ((value): value is string => typeof value === 'string' && isIsoDate(value)) as CursorPart<string>,
  /** A point in time as Date.toISOString() writes it (what the encoder put in). */
  timestamp: ((value): value is string =>
    typeof value === 'string' &&
    value.length <= 30 &&
    !Number.isNaN(Date.parse(value)) &&
    new Date(value).toISOString() === value) as CursorPart<string>,
} as const;

/** A cursor's text read: the row's place, or a failure (the route layer refuses it with `refusal`). */
export type DecodedCursor<P> = { ok: true; position: P } | { ok: false };

export interface CursorCodec<Context, Position> {
  /** The contract's message for a cursor this list cannot take. */
  readonly refusal: string;
  encode(context: Context, position: Position): string;
  decode(text: string, context: Context): DecodedCursor<Position>;
}

type CursorValue = string | number | null;

/**
 * A list's cursor: opaque to the client (base64url of a JSON array), it repeats what it belongs to
 * (`of`: the sort and order, a filter), so a cursor of another list state or a forged one is refused
 * rather than misread, then carries the last row's place (`at`: each value with its check, in the
 * order written).
 */
export function cursorCodec<Context, Position extends { [K in keyof Position]: CursorValue }>(shape: {
  refusal: string;
  of: (context: Context) => readonly CursorValue[];
  at: (context: Context) => { readonly [K in keyof Position]: CursorPart<Position[K]> };
}): CursorCodec<Context, Position> {
  const refused = { ok: false } as const;
  return {
    refusal: shape.refusal,
    encode(context, position) {
      const keys = Object.keys(shape.at(context));
      const values = [...shape.of(context), ...keys.map((key) => position[key as keyof Position])];
      return Buffer.from(JSON.stringify(values)).toString('base64url');
    },
    decode(text, context) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
      } catch {
        return refused;
      }
      const of = shape.of(context);
      const checks = Object.entries<CursorPart<CursorValue>>(shape.at(context));
      if (!Array.isArray(parsed) || parsed.length !== of.length + checks.length) return refused;
      const values: unknown[] = parsed;
      if (of.some((value, i) => values[i] !== value)) return refused;
      const position: Record<string, CursorValue> = {};
      for (const [i, [key, check]] of checks.entries()) {
        const value = values[of.length + i];
        if (!check(value)) return refused;
        position[key] = value;
      }
      return { ok: true, position: position as Position };
    },
  };
}

// ---- The page's statement ------------------------------------------------------------------

/** Adds a value to the statement and gives its placeholder ($n). */
export type Param = (value: unknown) => string;

/** What a list's page statement is made of; every text may use the placeholders of `params`. */
export interface PageParts {
  /** The values of the placeholders the texts below already use, in order. */
  params: unknown[];
  /** CTEs the page reads (`name as (...)`), written before it. */
  with?: string[];
  /** The page: a select of the list's columns, the first of which is never null on a row. */
  page: string;
  /** A select of one row and one column, `total`: the list's size, read by the same statement. */
  total?: (param: Param) => string;
  /**
   * A full-access read's audit record, written by the same statement when the page has rows. The
   * detail is a text, or a text with the page's row count ("1 row", "25 rows") between two parts.
   */
  audit?: { actor: AuditActor; detail: string | { before: string; after: string } };
}

/** A page statement's text and values, and whether its rows start with the total. */
export interface ComposedPage {
  sql: string;
  params: unknown[];
  withTotal: boolean;
}

export interface PagedStatement<Row> {
  compose(parts: PageParts): ComposedPage;
  /**
   * Runs a composed page on the pool's driver (a transaction has none): named when `named`, so
   * PostgreSQL prepares it once per connection. Give a name only to texts of bounded variety whose
   * generic plan is sound (see statementNamer); the names are capped per list.
   */
  run(db: Database, page: ComposedPage, named: boolean): Promise<{ rows: Row[]; total?: number }>;
}

const readTotal = rowReader<{ total: number }>()(['total']);

/**
 * The page statement of one list. `read` reads a row of the page's columns; `order` names the
 * page's order by its columns when the page's own select does not keep it (a join of the ids to
 * their rows): the answer and the audit record's participant ids follow it.
 */
export function pagedStatement<Row>(list: {
  name: string;
  read: (values: unknown[]) => Row;
  auditAction: AuditAction;
  order?: readonly string[];
  /** How a named page is planned (scope.ts, PlanChoice): as configured unless given. */
  plan?: PlanChoice;
}): PagedStatement<Row> {
  const nameOf = statementNamer(list.name);
  const ids = list.order
    ? `array_agg(participant_id order by ${list.order.join(', ')})`
    : 'array_agg(participant_id)';
  const orderBy = list.order ? `\n    order by ${list.order.map((c) => `page.${c}`).join(', ')}` : '';
  return {
    compose(parts) {
      const params = [...parts.params];
      const param: Param = (value) => {
        params.push(value);
        return `$${params.length}`;
      };
      const ctes = [...(parts.with ?? []), `page as (${parts.page})`];
      if (parts.audit) {
        const { detail } = parts.audit;
        const detailSql =
          typeof detail === 'string'
            ? `${param(detail)}::text`
            : `${param(detail.before)}::text || count(*)::text || case when count(*) = 1 then ' row' else ' rows' end
          || ${param(detail.after)}::text`;
        const insert = listReadAuditSql({
          action: list.auditAction,
          actor: parts.audit.actor,
          rows: 'page',
          participantIds: ids,
          detail: detailSql,
          param,
        });
        ctes.push(`audited as (${insert})`);
      }
      if (parts.total) ctes.push(`counted as (${parts.total(param)})`);
      if (ctes.length === 1) return { sql: parts.page, params, withTotal: false };
      // A CTE used twice (the page, by the audit record and the answer) is read once, in its own
      // order; the one-row `counted` is the outer side of a join on true, so the page's rows follow
      // it in their order, and a page past the end is still one row: the total's.
      const select = parts.total
        ? 'select counted.total, page.* from counted left join page on true'
        : 'select * from page';
      return {
        sql: `with ${ctes.join(', ')} ${select}${orderBy}`,
        params,
        withTotal: parts.total !== undefined,
      };
    },

    async run(db, page, named) {
      const name = named ? nameOf(page.sql) : undefined;
      const rows = await arrayRows(db, page, name, name === undefined ? undefined : list.plan);
      if (!rows) throw new Error(`${list.name}: a page is read on the pool's driver, not in a transaction`);
      if (!page.withTotal) return { rows: rows.map(list.read) };
      const total = rows.length > 0 ? readTotal(rows[0]!).total : 0;
      // Past the end the one row has the total and nulls, its page's first column among them.
      const pageRows = rows.filter((r) => r[1] !== null).map((r) => list.read(r.slice(1)));
      return { rows: pageRows, total };
    },
  };
}
