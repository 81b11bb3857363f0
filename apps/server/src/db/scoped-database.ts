import type { PGlite, Transaction } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import type { Database } from './client.js';
import { requireScope, scopeStatement } from './scope.js';
import * as schema from './schema.js';

/**
 * The database the application's modules use (ctx.db): every statement runs as STAFF_ROLE with the
 * scope of the request or job that sent it (db/scope.ts), set for its transaction.
 *
 * - A statement outside a transaction gets one of its own: BEGIN and the scope in one round trip,
 *   the statement, COMMIT.
 * - `db.transaction()` sets the scope once, right after its BEGIN; savepoints (nested
 *   transactions) are inside that transaction and keep it.
 * - Embedded, PGlite serves every request through one session. A transaction there holds the
 *   session until it ends (PGlite runs nothing else meanwhile, a plain query included), so one
 *   request's scope is never seen by another's statement however their awaits interleave; and as
 *   the scope is the transaction's, nothing of it is left on the session after.
 * - With no scope at all, nothing is sent: NoScopeError.
 */
export function scopedDatabase(handle: { pglite?: PGlite; pool?: pg.Pool }): Database {
  if (handle.pool) return drizzlePg(new ScopedPool(handle.pool) as never, { schema });
  return drizzlePglite(scopedPglite(handle.pglite!), { schema });
}

type QueryConfig = string | { text: string; name?: string; values?: unknown[]; rowMode?: string };

/**
 * node-postgres's pool as Drizzle and our drivers use it (query, connect), each statement scoped.
 * Its name says Pool: Drizzle then gives a transaction a connection of its own, as with pg.Pool.
 */
export class ScopedPool {
  constructor(readonly pool: pg.Pool) {}

  async query(config: QueryConfig, values?: unknown[]): Promise<pg.QueryResult> {
    const begin = `begin; ${scopeStatement(requireScope())}`;
    const client = await this.pool.connect();
    let broken: Error | undefined;
    // A connection lost between two of these round trips is reported as the client's 'error' event,
    // which no one else listens to while it is checked out (the pool removes its own): unheard, it
    // would end the process. Heard, the next query fails, the request answers 503, and the client
    // is released as broken, so the pool makes a new one.
    const onError = (error: Error) => (broken = error);
    client.on('error', onError);
    try {
      await client.query(begin);
      const result = await client.query(config as pg.QueryConfig, values);
      await client.query('commit');
      return result;
    } catch (error) {
      await client.query('rollback').catch((failed: Error) => (broken = failed));
      throw error;
    } finally {
      client.removeListener('error', onError);
      client.release(broken);
    }
  }

  /** A connection for a transaction: its BEGIN carries the scope. */
  async connect(): Promise<pg.PoolClient> {
    const scope = requireScope();
    const client = await this.pool.connect();
    // As in query(): a connection lost while the transaction holds it must not end the process.
    let broken: Error | undefined;
    const onError = (error: Error) => (broken = error);
    client.on('error', onError);
    return new Proxy(client, {
      get(target, property, receiver) {
        if (property === 'release')
          return (error?: Error | boolean) => {
            target.removeListener('error', onError);
            target.release(error ?? broken);
          };
        if (property !== 'query') {
          const value = Reflect.get(target, property, receiver) as unknown;
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        }
        return (config: QueryConfig, values?: unknown[]) => {
          const text = typeof config === 'string' ? config : config.text;
          // Drizzle's transaction starts with `begin` (and the level, if asked): the scope follows at once.
          if (/^begin\b/i.test(text)) return target.query(`${text}; ${scopeStatement(scope)}`);
          return target.query(config as pg.QueryConfig, values);
        };
      },
    });
  }

  end(): Promise<void> {
    return this.pool.end();
  }
}

/** The embedded database with every query and transaction scoped (see scopedDatabase). */
function scopedPglite(pglite: PGlite): PGlite {
  const inScope = async <T>(work: (tx: Transaction) => Promise<T>): Promise<T> => {
    const statement = scopeStatement(requireScope());
    return pglite.transaction(async (tx) => {
      await tx.exec(statement);
      return work(tx);
    });
  };
  return new Proxy(pglite, {
    get(target, property) {
      if (property === 'query')
        return (text: string, params?: unknown[], options?: object) =>
          inScope((tx) => tx.query(text, params, options));
      if (property === 'exec')
        return (text: string, options?: object) => inScope((tx) => tx.exec(text, options));
      if (property === 'transaction') return <T>(work: (tx: Transaction) => Promise<T>) => inScope(work);
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
