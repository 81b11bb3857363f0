import type { SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { notFound } from '../lib/http-error.js';
import type { Database } from './client.js';

/**
 * The row of `table` that `where` names, locked for the rest of the transaction (`select ... for
 * update`), so that changes to one record wait for each other; undefined when there is none.
 */
export async function lockedRow<T extends PgTable>(
  tx: Database,
  table: T,
  where: SQL,
): Promise<T['$inferSelect'] | undefined> {
  // Drizzle's select types do not follow a generic table: read as any table, typed by the caller's.
  const source: PgTable = table;
  const [row] = await tx.select().from(source).where(where).for('update');
  return row;
}

/** lockedRow, or a 404 with the contract's `notFoundMessage` when there is none. */
export async function lockRow<T extends PgTable>(
  tx: Database,
  table: T,
  where: SQL,
  notFoundMessage: string,
): Promise<T['$inferSelect']> {
  const row = await lockedRow(tx, table, where);
  if (!row) throw notFound(notFoundMessage);
  return row;
}
