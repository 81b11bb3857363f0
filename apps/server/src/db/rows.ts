import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Database } from './client.js';
import { ScopedPool } from './scoped-database.js';

/** Rows of a raw `db.execute(sql...)`, whose result differs in type between PGlite and node-postgres. */
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
 * caller then runs the builder itself. With a `name`, PostgreSQL runs it as a statement prepared
 * once per connection (only for a text of bounded variety whose generic plan is sound; see the
 * participants page); PGlite runs it as it is.
 */
export async function arrayRows(
  db: Database,
  query: { sql: string; params: unknown[] },
  name?: string,
): Promise<unknown[][] | null> {
  const client = (db as { $client?: unknown }).$client;
  if (client instanceof pg.Pool || client instanceof ScopedPool) {
    const result = await client.query({
      name,
      text: query.sql,
      values: query.params,
      rowMode: 'array',
      types: nodePgTypes,
    });
    return result.rows as unknown[][];
  }
  if (client instanceof PGlite) {
    const result = await client.query<unknown[]>(query.sql, query.params, {
      rowMode: 'array',
      parsers: { [DATE_OID]: keepText },
    });
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
    return (values) => {
      const row: Record<string, unknown> = {};
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
