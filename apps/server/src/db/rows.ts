import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Database } from './client.js';
import type { PlanChoice } from './scope.js';
import { ScopedPool, type NamedQueryOptions } from './scoped-database.js';

/**
 * Rows of a raw `db.execute(sql...)`, whose result differs in type between PGlite and node-postgres,
 * cast to `T` unchecked: for tests and benchmarks. The server's code reads them with `rowsReader`,
 * which checks each value (the lint refuses `rowsOf` in apps/server/src outside tests).
 */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** The date type's OID: kept as its text (YYYY-MM-DD), as Drizzle's `date({ mode: 'string' })` reads it. */
const DATE_OID = 1082;
const keepText = (value: string) => value;
const nodePgTypes = {
  getTypeParser: (oid: number, format?: 'text' | 'binary'): ((value: string) => unknown) =>
    oid === DATE_OID ? keepText : (pg.types.getTypeParser(oid, format) as (value: string) => unknown),
};

/**
 * The rows of a query Drizzle built (`builder.toSQL()`), as arrays of values in its select order,
 * straight from the driver: for a hot read of many rows, where Drizzle's per-value row mapping was
 * the largest share of the request's JavaScript (a grid page is 100 rows of 21 values). Values
 * come typed as Drizzle reads these columns: integers and booleans as such, timestamps with time
 * zone as Dates, dates as text. Null when `db` gives no driver of its own (a transaction): the
 * caller then runs the builder itself. With a `name`, it runs as a statement prepared once per
 * PostgreSQL connection, or once on PGlite's session through the application's database (only for
 * a text of bounded variety whose generic plan is sound; see the participants page); `plan`
 * 'generic' keeps that one plan for every run (scope.ts, PlanChoice).
 */
export async function arrayRows(
  db: Database,
  query: { sql: string; params: unknown[] },
  name?: string,
  plan?: PlanChoice,
): Promise<unknown[][] | null> {
  const client = (db as { $client?: unknown }).$client;
  if (client instanceof pg.Pool || client instanceof ScopedPool) {
    const result = await client.query({
      name,
      plan,
      text: query.sql,
      values: query.params,
      rowMode: 'array',
      types: nodePgTypes,
    });
    return result.rows as unknown[][];
  }
  if (client instanceof PGlite) {
    const options: NamedQueryOptions = { rowMode: 'array', parsers: { [DATE_OID]: keepText }, name, plan };
    const result = await client.query<unknown[]>(query.sql, query.params, options);
    return result.rows;
  }
  return null;
}

/**
 * Reads rows that come as arrays (arrayRows, preparedArrays) into objects of type `T`, naming
 * each value by `keys`, the order the statement selects them in. Every key of `T` must be listed
 * (a missing one is a type error naming it), so the statement's select list and the row type are
 * written once each and read in one place: this module, not `row[n] as …` at every call. The
 * values are the driver's, already typed (see arrayRows): the statement's casts decide them.
 *
 *   const readSession = rowReader<SessionRow>()(['session_id', 'created_at', …]);
 *   const [row] = (await preparedArrays(db, name, SQL, params)).map(readSession);
 */
export function rowReader<T extends object>() {
  return <const K extends readonly (keyof T & string)[]>(
    keys: K &
      (Exclude<keyof T, K[number]> extends never ? unknown : { missingKeys: Exclude<keyof T, K[number]> }),
  ): ((values: unknown[]) => T) => {
    const names: readonly string[] = keys;
    // Each row starts as a copy of an object that has every key already (JSON.parse builds it in
    // V8's fast layout): one allocation of the row's final size. Grown key by key, a row of 30-odd
    // keys reallocated its property store every few keys: 100 MB allocated for the rows of a
    // 100k-participant export, 23 MB so (sampling heap profile, 2026-12-07).
    const template = JSON.parse(
      JSON.stringify(Object.fromEntries(names.map((name) => [name, null]))),
    ) as object;
    return (values) => {
      const row: Record<string, unknown> = { ...template };
      for (let i = 0; i < names.length; i++) row[names[i]!] = values[i];
      return row as T;
    };
  };
}

/**
 * Names for the statements of a family whose text varies with the request's shape (page size,
 * filters, sort): a text gets a name the first time it is seen, so PostgreSQL prepares it once per
 * connection. Only for texts of bounded variety whose generic plan is sound; capped at `max` names
 * so no request can make a connection hold statements without bound (past the cap a text runs
 * unnamed).
 */
export function statementNamer(prefix: string, max = 100): (text: string) => string | undefined {
  const names = new Map<string, string>();
  return (text) => {
    let name = names.get(text);
    if (!name && names.size < max) {
      name = `${prefix}.${names.size + 1}`;
      names.set(text, name);
    }
    return name;
  };
}

/** What a column's check answers for a value that is not of its type. */
const WRONG: unique symbol = Symbol('not of the column type');

/** How one column of a raw statement's rows is checked, and read into the row. */
export interface Column<T> {
  /** What the column must hold, for the error. */
  readonly expected: string;
  readonly read: (value: unknown) => T | typeof WRONG;
}

const columnOf = <T>(expected: string, read: (value: unknown) => T | typeof WRONG): Column<T> => ({
  expected,
  read,
});

/** The column, or null. */
export function nullable<T>(column: Column<T>): Column<T | null> {
  return columnOf(`${column.expected} or null`, (value) => (value === null ? null : column.read(value)));
}

const parseTimestamp = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ) as (text: string) => Date;
const SAFE_INTEGER_TEXT = /^-?\d{1,15}$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The columns a raw statement's rows may hold, as both drivers give them through `db.execute`.
 * Where they differ, the column reads either: node-postgres gives int8 (a count without `::int`)
 * as text and PGlite as a number; both give timestamps and dates as text.
 */
export const column = {
  /** int2, int4, or int8 within JavaScript's safe integers. */
  integer: columnOf<number>('an integer', (value) => {
    const n =
      typeof value === 'string' && SAFE_INTEGER_TEXT.test(value)
        ? Number(value)
        : typeof value === 'bigint' && BigInt(Number(value)) === value
          ? Number(value)
          : value;
    return typeof n === 'number' && Number.isSafeInteger(n) ? n : WRONG;
  }),
  /** float8 (cast numeric to it: both drivers give numeric as text). */
  number: columnOf<number>('a number', (value) =>
    typeof value === 'number' && Number.isFinite(value) ? value : WRONG,
  ),
  text: columnOf<string>('text', (value) => (typeof value === 'string' ? value : WRONG)),
  boolean: columnOf<boolean>('a boolean', (value) => (typeof value === 'boolean' ? value : WRONG)),
  /** A date as YYYY-MM-DD text, as Drizzle's `date({ mode: 'string' })` reads it. */
  date: columnOf<string>('a date', (value) =>
    typeof value === 'string' && ISO_DATE.test(value) ? value : WRONG,
  ),
  /** An int4[] (both drivers read it into an array of numbers). */
  integers: columnOf<number[]>('an array of integers', (value) =>
    Array.isArray(value) && value.every((n) => Number.isSafeInteger(n)) ? (value as number[]) : WRONG,
  ),
  /** A text[] of dates as YYYY-MM-DD (each cast with to_char, so both drivers give text). */
  dates: columnOf<string[]>('an array of dates', (value) =>
    Array.isArray(value) && value.every((d) => typeof d === 'string' && ISO_DATE.test(d))
      ? (value as string[])
      : WRONG,
  ),
  /** A timestamp with time zone, as a Date. */
  timestamp: columnOf<Date>('a timestamp', (value) => {
    const at = typeof value === 'string' ? parseTimestamp(value) : value;
    return at instanceof Date && !Number.isNaN(at.getTime()) ? at : WRONG;
  }),
  /** One of `values` (a status, a class, a kind the statement itself writes). */
  oneOf: <const V extends readonly (string | number)[]>(values: V): Column<V[number]> =>
    columnOf(`one of ${values.join(', ')}`, (value) =>
      (typeof value === 'string' || typeof value === 'number') && values.includes(value)
        ? (value as V[number])
        : WRONG,
    ),
};

/** What a value is, for an error: never the value itself (rows hold identifiable data, errors reach logs). */
function kindOf(value: unknown): string {
  if (value === undefined) return 'missing from the row';
  if (value === null) return 'null';
  if (value instanceof Date) return 'a Date';
  if (Array.isArray(value)) return 'an array';
  return `of type ${typeof value}`;
}

/** The rows of a raw statement's result, as objects, from either driver. */
function resultRows(result: unknown): Record<string, unknown>[] {
  const rows = (result as { rows?: unknown } | null)?.rows;
  if (!Array.isArray(rows)) throw new Error('not the result of a statement that returns rows');
  return rows as Record<string, unknown>[];
}

/**
 * The rows of a raw `db.execute(sql...)` whose columns the caller cannot know (a table's every
 * column, `select *`): objects of the driver's values.
 */
export function recordRows(result: unknown): Record<string, unknown>[] {
  return resultRows(result);
}

type RowOf<C extends Readonly<Record<string, Column<unknown>>>> = {
  -readonly [K in keyof C]: C[K] extends Column<infer T> ? T : never;
};

/**
 * Reads the rows of a raw `db.execute(sql...)` into objects of the columns named in `columns`,
 * checking each value against its column's type: a value of another type (a count that came as
 * text, a column the statement no longer selects, a null where none may be) throws, naming the
 * column, instead of travelling on under a type it does not have. Other columns are left out.
 * The row type is the columns' (`RowOf`), so a statement's columns and their types are written
 * once, beside it:
 *
 *   const readDue = rowsReader({ participant_id: column.integer, due: nullable(column.timestamp) });
 *   const rows = readDue(await db.execute(sql`select participant_id, due from ...`));
 */
export function rowsReader<const C extends Readonly<Record<string, Column<unknown>>>>(
  columns: C,
): (result: unknown) => RowOf<C>[] {
  const entries = Object.entries(columns);
  return (result) =>
    resultRows(result).map((row, index) => {
      const read: Record<string, unknown> = {};
      for (const [name, type] of entries) {
        const value = type.read(row[name]);
        if (value === WRONG)
          throw new Error(
            `column "${name}" of row ${index + 1} is ${kindOf(row[name])}, where ${type.expected} was expected`,
          );
        read[name] = value;
      }
      return read as RowOf<C>;
    });
}
