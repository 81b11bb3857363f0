import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Database } from './client.js';
import { ScopedPool, type NamedQueryOptions } from './scoped-database.js';

/**
 * A hot statement of fixed text run by the driver, rows as arrays of typed values (timestamps
 * with time zone as Dates; cast a date to text to keep it as Drizzle's string mode reads it).
 * It is a named (server-prepared) statement: parsed and planned once per PostgreSQL connection,
 * and once on PGlite's session through the application's database (db/scoped-database.ts), so use
 * it only for a text whose generic plan is its custom one (point reads and writes by key). No
 * Drizzle building or row mapping either: on the hottest calls those were a large share of the
 * request's JavaScript. `db` must be the pool's (a transaction has no driver of its own here).
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
    const options: NamedQueryOptions = { rowMode: 'array', name };
    return (await client.query<unknown[]>(text, values, options)).rows;
  }
  throw new Error(`${name}: the database has no driver of its own (a transaction?)`);
}
