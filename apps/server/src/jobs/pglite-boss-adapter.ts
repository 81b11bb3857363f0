import type { PGlite, Transaction } from '@electric-sql/pglite';
import type PgBoss from 'pg-boss';

/**
 * pg-boss's database interface over PGlite's single in-process session.
 *
 * - SQL with parameters is one statement: `query`. Without parameters it may be many: `exec`
 *   (which never splits inside $$ bodies).
 * - pg-boss wraps install, migration and maintenance in `BEGIN; ... pg_advisory_xact_lock ...;
 *   COMMIT;`. Run as plain `exec`, a failing statement there (pg-boss expects some, e.g. "already
 *   exists") would leave the one shared session in an aborted transaction and break every later
 *   query of the app; so the body runs inside `transaction()`, which rolls back cleanly.
 */
const LOCKED_SCRIPT = /^\s*BEGIN\s*;([\s\S]*?)\bCOMMIT\s*;?\s*$/i;
type Queryable = PGlite | Transaction;
type Rows = { rows: unknown[]; rowCount: number };

export class PGliteBossAdapter implements PgBoss.Db {
  constructor(private readonly pg: Queryable) {}

  async executeSql(text: string, values?: unknown[]): Promise<Rows> {
    if (values && values.length > 0) {
      const result = await this.pg.query(text, values);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    }
    const locked = LOCKED_SCRIPT.exec(text);
    if (locked) {
      const body = locked[1]!;
      // Inside a caller's transaction we must not BEGIN/COMMIT it ourselves.
      const results = isTransaction(this.pg)
        ? await this.pg.exec(body)
        : await this.pg.transaction((tx) => tx.exec(body));
      return lastRows(results);
    }
    return lastRows(await this.pg.exec(text));
  }
}

function isTransaction(pg: Queryable): pg is Transaction {
  return typeof (pg as Transaction).rollback === 'function' && !('waitReady' in pg);
}

function lastRows(results: { rows: unknown[]; affectedRows?: number }[]): Rows {
  const last = results[results.length - 1];
  return { rows: last?.rows ?? [], rowCount: last?.affectedRows ?? 0 };
}
