import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Database } from './client.js';
import { ScopedPool } from './scoped-database.js';

/**
 * A hot statement of fixed text run by the driver, rows as arrays of typed values (timestamps
 * with time zone as Dates; cast a date to text to keep it as Drizzle's string mode reads it).
 * On PostgreSQL it is a named (server-prepared) statement: parsed and planned once per
 * connection, so use it only for a text whose generic plan is its custom one (point reads and
 * writes by key); PGlite runs it as it is. No Drizzle building or row mapping either: on the
 * hottest calls those were a large share of the request's JavaScript. `db` must be the pool's
 * (a transaction has no driver of its own here).
 */
export async function preparedArrays(
  db: Database,
  name: string,
  text: string,
  values: unknown[],
): Promise<unknown[][]> {
  const client = (db as { $client?: unknown }).$client;
  if (client instanceof pg.Pool || client instanceof ScopedPool) {
    return (await client.query({ name, text, values, rowMode: 'array' })).rows as unknown[][];
  }
  if (client instanceof PGlite) {
    return (await client.query<unknown[]>(text, values, { rowMode: 'array' })).rows;
  }
  throw new Error(`${name}: the database has no driver of its own (a transaction?)`);
}
