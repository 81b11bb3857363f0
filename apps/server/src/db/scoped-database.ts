import {
  parse,
  protocol,
  type PGlite,
  type QueryOptions,
  type Results,
  type Transaction,
} from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Database } from './client.js';
import { SET_SCOPE_SQL, requireScope, scopeSettings, scopeStatement, type PlanChoice } from './scope.js';
import * as schema from './schema.js';

/**
 * The database the application's modules use (ctx.db): every statement runs as STAFF_ROLE with the
 * scope of the request or job that sent it (db/scope.ts), set for its transaction, and nothing of a
 * scope outlives the transaction it was set in.
 *
 * - A statement outside a transaction is sent in one message (one round trip, one write), after
 *   the scope in the same implicit transaction. PostgreSQL: the extended protocol's messages up to
 *   a Sync run as one implicit transaction, so `Bind`/`Execute` of SET_SCOPE_SQL (prepared once
 *   per connection) go ahead of the statement's own `Parse`/`Bind`/`Execute`/`Sync` (ScopedQuery):
 *   its parameters, its named prepared statement and its answer are exactly node-postgres's, the
 *   scope's answer is dropped, and at the Sync the transaction ends, committed or rolled back, and
 *   the scope with it. A statement without parameters goes as a simple query after the scope's
 *   statement written out: the statements of one simple query are one implicit transaction too.
 *   Chosen over a scope kept on the connection and re-set only when it changes: one round trip
 *   either way on a warm connection, but with nothing left on a connection another statement
 *   could run under (a connection pooler in transaction mode hands connections around between
 *   statements), and no state to get wrong after an error.
 * - `db.transaction()` sets the scope once, right after its BEGIN; savepoints (nested
 *   transactions) are inside that transaction and keep it.
 * - Embedded, PGlite serves every request through one session. A statement outside a transaction
 *   is the same pipeline (scopedPglite's `query`), run while it holds PGlite's own locks (the
 *   transaction lock and the query lock, as PGlite's `query` does), so no other request's
 *   statement comes between the scope and the Sync that ends it. A transaction holds the session
 *   until it ends (PGlite runs nothing else meanwhile, a plain query included), so one request's
 *   scope is never seen by another's statement however their awaits interleave.
 * - With no scope at all, nothing is sent: NoScopeError.
 */
export function scopedDatabase(handle: { pglite?: PGlite; pool?: pg.Pool }): Database {
  if (handle.pool) return drizzlePg(new ScopedPool(handle.pool) as never, { schema });
  return drizzlePglite(scopedPglite(handle.pglite!), { schema });
}

/** `plan`: how the statement is planned (scope.ts, PlanChoice); as configured unless asked. */
type QueryConfig =
  | string
  | { text: string; name?: string; values?: unknown[]; rowMode?: string; plan?: PlanChoice };

/** The name SET_SCOPE_SQL is prepared under, once per connection. */
const SET_SCOPE_STATEMENT = 'pathway_set_scope';

/** What of node-postgres's Query and Connection (pg/lib/query.js, connection.js) ScopedQuery drives. */
interface WireConnection {
  parsedStatements: Record<string, string | undefined>;
  bind(message: { statement: string; values: unknown[] }): void;
  execute(message: object): void;
  sync(): void;
}
interface QueryInternals {
  text: string;
  requiresPreparation(): boolean;
  prepare(connection: WireConnection): void;
  handleRowDescription(message: unknown): void;
  handleDataRow(message: unknown): void;
  handleCommandComplete(message: unknown, connection: WireConnection): void;
  handleEmptyQuery(connection: WireConnection): void;
  handleError(error: Error, connection: WireConnection): void;
  handleReadyForQuery(connection: WireConnection): void;
}
const query = pg.Query.prototype as unknown as QueryInternals;

/**
 * One statement with the scope ahead of it in the same message and implicit transaction (see
 * scopedDatabase). The backend answers the scope's statement first (BindComplete, a row,
 * CommandComplete): dropped here, so what the caller gets is the statement's answer alone. If the
 * scope's statement fails, the backend skips the rest up to the Sync and the statement is refused.
 */
class ScopedQuery extends pg.Query {
  /** The scope's answer is still to come: its messages are not the statement's. */
  private scopePending = false;
  /** Answered with an error already (a value its Bind could not write: before the Sync was sent). */
  private refused = false;

  /**
   * `answered` is given to node-postgres's constructor, not set on the query once made (as this
   * class did, and as node-postgres's own promise form `client.query(config)` does). Set after,
   * the rows of every answer outlived the young generation's collections: moved to the old
   * generation, they waited there as garbage for a full collection, and a whole-list export grew
   * the server by 100-150 MB. Given here, reading the export's 50 batches of 2,000 rows twice
   * moved 27 MB to the old generation instead of 187 MB (the same code otherwise; why the
   * callback's moment matters to V8 was not established: bench/results.md, "Whole-list export
   * memory again"). The config is copied: node-postgres writes the callback into the object it is
   * given, which may be a caller's, kept and given again (Drizzle's prepared queries).
   */
  constructor(
    config: QueryConfig,
    values: unknown[] | undefined,
    private readonly settings: string[],
    inline: () => string,
    answered: (error: Error | null, result?: pg.QueryResult) => void,
  ) {
    super(
      { ...(typeof config === 'string' ? { text: config } : config), callback: answered } as pg.QueryConfig,
      values,
    );
    const self = this as unknown as QueryInternals;
    if (!self.requiresPreparation()) {
      self.text = `${inline()}; ${self.text}`;
      this.scopePending = true;
    }
  }

  prepare(connection: WireConnection): void {
    connection.bind({ statement: SET_SCOPE_STATEMENT, values: this.settings });
    connection.execute({});
    this.scopePending = true;
    this.refused = false;
    query.prepare.call(this, connection);
    // node-postgres answers a value it cannot write at once, before its Sync: the Sync that ends
    // the implicit transaction the scope began is sent here, and its ReadyForQuery frees the connection.
    if (this.refused) connection.sync();
  }

  handleRowDescription(message: unknown): void {
    if (!this.scopePending) query.handleRowDescription.call(this, message);
  }

  handleDataRow(message: unknown): void {
    if (!this.scopePending) query.handleDataRow.call(this, message);
  }

  handleCommandComplete(message: unknown, connection: WireConnection): void {
    if (this.scopePending) this.scopePending = false;
    else query.handleCommandComplete.call(this, message, connection);
  }

  handleEmptyQuery(connection: WireConnection): void {
    if (!this.scopePending) query.handleEmptyQuery.call(this, connection);
  }

  handleError(error: Error, connection: WireConnection): void {
    this.refused = true;
    query.handleError.call(this, error, connection);
  }

  handleReadyForQuery(connection: WireConnection): void {
    // Refused already (the error was answered): the ReadyForQuery only frees the connection.
    if (!this.refused) query.handleReadyForQuery.call(this, connection);
  }

  /** The statement's answer, on `client` (a submittable is answered through its callback). */
  static answer(
    client: pg.PoolClient,
    config: QueryConfig,
    values: unknown[] | undefined,
    settings: string[],
    inline: () => string,
  ): Promise<pg.QueryResult> {
    return new Promise((resolve, reject) => {
      const query = new ScopedQuery(config, values, settings, inline, (error, result) =>
        error ? reject(error) : resolve(result!),
      );
      void client.query(query);
    });
  }
}

/**
 * node-postgres's pool as Drizzle and our drivers use it (query, connect), each statement scoped.
 * Its name says Pool: Drizzle then gives a transaction a connection of its own, as with pg.Pool.
 */
export class ScopedPool {
  constructor(readonly pool: pg.Pool) {}

  async query(config: QueryConfig, values?: unknown[]): Promise<pg.QueryResult> {
    const scope = requireScope();
    const plan = typeof config === 'string' ? undefined : config.plan;
    const settings = scopeSettings(scope, plan);
    const client = await this.pool.connect();
    let broken: Error | undefined;
    // A connection lost while it is checked out is reported as the client's 'error' event, which
    // no one else listens to meanwhile (the pool removes its own): unheard, it would end the
    // process. Heard, the query fails, the request answers 503, and the client is released as
    // broken, so the pool makes a new one.
    const onError = (error: Error) => (broken = error);
    client.on('error', onError);
    try {
      const connection = (client as unknown as { connection: WireConnection }).connection;
      // Once per connection, in a round trip of its own (an implicit transaction that sets the
      // scope and ends): prepared, the scope's statement goes ahead of each statement by name.
      if (connection.parsedStatements[SET_SCOPE_STATEMENT] === undefined)
        await client.query({ name: SET_SCOPE_STATEMENT, text: SET_SCOPE_SQL, values: settings });
      return await ScopedQuery.answer(client, config, values, settings, () => scopeStatement(scope, plan));
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
  const scopedQuery = async (text: string, params: unknown[] = [], options: NamedQueryOptions = {}) => {
    const statement = scopeStatement(requireScope(), options.plan);
    await pglite._checkReady();
    // PGlite's own locks, taken as its `query` takes them: no transaction and no other statement
    // of the one session runs between this statement's scope and its Sync.
    return pglite._runExclusiveTransaction(() =>
      pglite.runExclusive(() => pipelined(pglite, statement, text, params, options)),
    );
  };
  return new Proxy(pglite, {
    get(target, property) {
      if (property === 'query') return scopedQuery;
      if (property === 'exec')
        return (text: string, options?: object) => inScope((tx) => tx.exec(text, options));
      if (property === 'transaction') return <T>(work: (tx: Transaction) => Promise<T>) => inScope(work);
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

function joined(messages: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(messages.reduce((length, m) => length + m.length, 0));
  let at = 0;
  for (const m of messages) {
    out.set(m, at);
    at += m.length;
  }
  return out;
}

/**
 * PGlite's query options, and a name: a statement named here (db/prepared.ts, db/rows.ts) is
 * prepared once on the session under that name and run by it after (parsed and planned once, as
 * on PostgreSQL's connections); PGlite itself ignores the name.
 */
export type NamedQueryOptions = QueryOptions & { name?: string; plan?: PlanChoice };

/** The statements prepared on each embedded session: their text and parameter types. */
const preparedOn = new WeakMap<PGlite, Map<string, { text: string; types: number[] }>>();

/**
 * One statement and its scope in one implicit transaction, as PGlite's own `query` runs a
 * statement (parse, describe, bind, describe, execute, sync) with the scope's statement ahead of
 * it, in two calls into PostgreSQL instead of six: the first ends with the statement's parameter
 * types, which its values are written by (PGlite's serializers); the second ends with the Sync
 * that ends the transaction, and the scope with it, committed or rolled back. A named statement
 * already prepared on the session is one call: its types are known. The caller holds PGlite's
 * locks. The scope's answer (before its CommandComplete) is dropped.
 */
async function pipelined(
  pglite: PGlite,
  scope: string,
  text: string,
  params: unknown[],
  options: NamedQueryOptions,
): Promise<Results> {
  const { serialize } = protocol;
  const quiet = { syncToFs: false };
  const name = options.name;
  let prepared = name === undefined ? undefined : preparedOn.get(pglite)?.get(name);
  if (prepared && prepared.text !== text) throw new Error(`${name}: prepared already, for another statement`);
  const scopeMessages = [serialize.parse({ text: scope }), serialize.bind({}), serialize.execute({})];
  let described: Awaited<ReturnType<PGlite['execProtocolStream']>> = [];
  let synced = false;
  try {
    if (!prepared) {
      described = await pglite.execProtocolStream(
        joined([
          ...scopeMessages,
          serialize.parse({ text, name, types: options.paramTypes }),
          serialize.describe({ type: 'S', name }),
        ]),
        quiet,
      );
      prepared = { text, types: parse.parseDescribeStatementResults(described) };
      if (name !== undefined) {
        const statements = preparedOn.get(pglite) ?? new Map<string, { text: string; types: number[] }>();
        preparedOn.set(pglite, statements.set(name, prepared));
      }
      scopeMessages.length = 0;
    }
    const { types } = prepared;
    const values = params.map((param, i) => {
      if (param === null || param === undefined) return null;
      // A parameter PostgreSQL described for each one Parse found ($1..$n, as the values given).
      const type = types[i]!;
      const serializer = options.serializers?.[type] ?? pglite.serializers[type];
      // As PGlite's own query writes a value of a type it has no serializer for.
      return serializer ? serializer(param) : (param as { toString(): string }).toString();
    });
    // Sent with the Sync: whether it fails or not, the transaction is over when this returns.
    synced = true;
    const answered = await pglite.execProtocolStream(
      joined([
        ...scopeMessages,
        serialize.bind({ statement: name, values }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ]),
      quiet,
    );
    await pglite.syncToFs();
    const messages = [...described, ...answered];
    const scopeAnswered = messages.findIndex((m) => m.name === 'commandComplete');
    return parse.parseResults(messages.slice(scopeAnswered + 1), pglite.parsers, options)[0]!;
  } finally {
    if (!synced) await pglite.execProtocolStream(serialize.sync(), quiet);
  }
}
