import { sql, type SQL } from 'drizzle-orm';
import { PgDialect, type PgTransactionConfig } from 'drizzle-orm/pg-core';
import type { Database } from '../../apps/server/src/db/client.js';
import { rowsOf } from '../../apps/server/src/db/rows.js';

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
