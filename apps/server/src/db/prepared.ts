import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Database } from './client.js';
import { ScopedPool, type NamedQueryOptions } from './scoped-database.js';

/**
 * A hot statement of fixed text run by the driver as a named (server-prepared) statement: parsed
 * and planned once per PostgreSQL connection, and once on PGlite's session through the
 * application's database (db/scoped-database.ts), so use it only for a text whose generic plan is
 * its custom one (point reads and writes by key, sums over a small table). On PGlite, parsing and
 * planning a statement cost 0.3-0.45 ms of CPU each time, more than running the dashboard's
 * (2026-12-07). No Drizzle building or row mapping either: on the hottest calls those were a large
 * share of the request's JavaScript. `db` must be the pool's (a transaction has no driver of its
 * own here). Values come typed by the driver (timestamps with time zone as Dates; cast a date to
 * text to keep it as Drizzle's string mode reads it).
 */
async function prepared(
  db: Database,
  name: string,
  text: string,
  values: unknown[],
  rowMode: 'array' | undefined,
): Promise<{ rows: unknown[] }> {
  const client = (db as { $client?: unknown }).$client;
  if (client instanceof pg.Pool || client instanceof ScopedPool) {
    return client.query({ name, text, values, ...(rowMode && { rowMode }) });
  }
  if (client instanceof PGlite) {
    const options: NamedQueryOptions = { name, ...(rowMode && { rowMode }) };
    return client.query(text, values, options);
  }
  throw new Error(`${name}: the database has no driver of its own (a transaction?)`);
}

/** A named statement's rows as arrays of values in its select order (see `prepared`). */
export async function preparedArrays(
  db: Database,
  name: string,
  text: string,
  values: unknown[],
): Promise<unknown[][]> {
  return (await prepared(db, name, text, values, 'array')).rows as unknown[][];
}

/**
 * A named statement's result, rows as objects (see `prepared`), for `rowsReader` to check: for a
 * statement of few rows whose values are worth checking by name.
 */
export async function preparedRows(
  db: Database,
  name: string,
  text: string,
  values: unknown[],
): Promise<{ rows: unknown[] }> {
  return prepared(db, name, text, values, undefined);
}
