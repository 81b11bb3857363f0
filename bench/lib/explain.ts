import { sql, type SQL } from 'drizzle-orm';
import { PgDialect, type PgTransactionConfig } from 'drizzle-orm/pg-core';
import type { Database } from '../../apps/server/src/db/client.js';
import { rowsOf } from '../../apps/server/src/db/rows.js';
import { adherenceCheckStatement } from '../../apps/server/src/modules/adherence/check.js';

/**
 * A database whose statements are explained (EXPLAIN (ANALYZE, BUFFERS)) instead of answered, each
 * plan pushed onto `plans`, inside the caller's own transactions so that their settings (JIT off,
 * work_mem) apply to the plans as to the route. Settings have no plan and run as they are, as do
 * the statements `runs` picks (a look-up the caller needs answered to go on); an explained
 * statement answers `answer` (what the caller makes of it is thrown away).
 */
export function explainingDatabase(
  db: Database,
  plans: string[],
  options: { runs?: (text: string) => boolean; answer?: unknown[] } = {},
): Database {
  const dialect = new PgDialect();
  const explainingOf = (inner: Database): Database =>
    ({
      transaction: (work: (tx: Database) => Promise<unknown>, config?: PgTransactionConfig) =>
        inner.transaction((tx) => work(explainingOf(tx as unknown as Database)), config),
      execute: async (query: SQL) => {
        const text = dialect.sqlToQuery(query).sql;
        if (/^\s*set\s/i.test(text) || options.runs?.(text)) return inner.execute(query);
        const explained = await inner.execute(sql`explain (analyze, buffers) ${query}`);
        plans.push(
          rowsOf<Record<string, string>>(explained)
            .map((row) => Object.values(row)[0]!)
            .join('\n'),
        );
        return { rows: options.answer ?? [] };
      },
    }) as unknown as Database;
  return explainingOf(db);
}

class RolledBack extends Error {}

/**
 * EXPLAIN (ANALYZE) of the daily check's statement for `day` (with BUFFERS if asked), in a
 * transaction with the check's own settings that is rolled back, so nothing of the day is kept:
 * the plan's lines. `db` is the caller's (the owner's connection, or the server's in its scope).
 */
export async function explainAdherenceCheck(
  db: Database,
  day: string,
  options: { buffers?: boolean } = {},
): Promise<string[]> {
  let plan: string[] = [];
  const explain = options.buffers ? sql`explain (analyze, buffers)` : sql`explain (analyze)`;
  await db
    .transaction(async (tx) => {
      await withCheckSettings(tx);
      const rows = rowsOf<Record<string, string>>(
        await tx.execute(sql`${explain} ${adherenceCheckStatement(day, new Date().toISOString())}`),
      );
      plan = rows.map((row) => Object.values(row)[0]!);
      throw new RolledBack();
    })
    .catch((error: unknown) => {
      if (!(error instanceof RolledBack)) throw error;
    });
  return plan;
}

/** The daily check's statement for `day`, committed (the days before the one to be explained). */
export async function runAdherenceCheckStatement(db: Database, day: string): Promise<void> {
  await db.transaction(async (tx) => {
    await withCheckSettings(tx);
    await tx.execute(adherenceCheckStatement(day, new Date().toISOString()));
  });
}

/** The settings the check's transaction runs with (modules/adherence/check.ts says why). */
async function withCheckSettings(tx: Pick<Database, 'execute'>): Promise<void> {
  await tx.execute(sql`set local jit = off`);
  await tx.execute(sql`set local work_mem = '64MB'`);
}
