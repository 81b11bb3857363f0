import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { guardEmbeddedDatabase } from './embedded-stop.js';
import { tightenTree } from '../lib/data-dir-modes.js';
import * as schema from './schema.js';

export type Schema = typeof schema;
/** The same query API over PGlite and node-postgres. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** Present in embedded mode: the one in-process PostgreSQL. */
  pglite?: PGlite;
  /** Present in PostgreSQL mode. */
  pool?: pg.Pool;
  /** Embedded mode: the error after which PGlite could not go on (db/embedded-stop.ts), if any. */
  stopped?: () => unknown;
  close(): Promise<void>;
}

const migrationsFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../drizzle');

/** Any fixed number: all instances take the same lock so only one migrates at a time. */
const MIGRATION_LOCK_KEY = 7_311_001;

export interface DatabaseOptions {
  /** postgres://... ; absent means embedded PGlite. */
  databaseUrl?: string;
  /** PGlite data directory; absent (with no url) means in memory (tests). */
  dataDir?: string;
  /**
   * In memory only: start from this data directory (PGlite's dumpDataDir) instead of an empty
   * cluster. Tests copy one migrated database rather than create and migrate one per file.
   */
  loadDataDir?: Blob;
  poolSize?: number;
  /** Embedded mode: told once if the database stops and cannot go on in this process. */
  onEmbeddedStop?: (reason: unknown) => void;
}

/**
 * PGlite is PostgreSQL compiled to WebAssembly. V8 first runs its functions from a fast baseline
 * compiler and re-compiles each one it finds hot with its optimising compiler, on background
 * threads. With the default threshold, PostgreSQL's own start-up code (run once) gets optimised
 * too: over a second of CPU on other threads during every start, which on a 2-core machine delays
 * the start itself. A threshold 100 times higher leaves run-once code alone; the queries a
 * running server repeats still get optimised. Unknown to a V8 without this flag: ignored.
 */
function slowerWasmTierUp(): void {
  v8.setFlagsFromString('--wasm-tiering-budget=180000000');
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: 5000,
    });
    // An idle client losing its server (PostgreSQL restarted) must not crash the process.
    pool.on('error', () => {});
    const db = drizzlePg(pool, { schema }) as unknown as Database;
    return { db, kind: 'postgres', pool, close: () => pool.end() };
  }
  const created = options.dataDir !== undefined && !existsSync(path.join(options.dataDir, 'PG_VERSION'));
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  slowerWasmTierUp();
  const instance =
    options.loadDataDir && !options.dataDir
      ? new PGlite({ loadDataDir: options.loadDataDir })
      : new PGlite(options.dataDir);
  await instance.waitReady;
  // initdb gives its files modes of its own (0750/0640): private like the rest of DATA_DIR.
  if (created) tightenTree(options.dataDir!);
  const { pglite, stopped } = guardEmbeddedDatabase(instance, options.onEmbeddedStop ?? (() => {}));
  const db = drizzlePglite(pglite, { schema }) as unknown as Database;
  return { db, kind: 'pglite', pglite, stopped, close: () => pglite.close() };
}

export interface MigrationSettings {
  /**
   * The name the organisation an existing instance becomes is given (ORGANISATION_NAME), read by
   * the migration that makes organisations from the session setting pathway.organisation_name.
   */
  organisationName?: string;
}

/** The settings migrations read, for the session that runs them (cleared again after). */
const SET_MIGRATION_SETTINGS = "select set_config('pathway.organisation_name', $1, false)";
const CLEAR_MIGRATION_SETTINGS = 'reset pathway.organisation_name';

export async function runMigrations(handle: DatabaseHandle, settings: MigrationSettings = {}): Promise<void> {
  const organisationName = settings.organisationName ?? '';
  if (handle.kind === 'pglite') {
    await handle.pglite!.query(SET_MIGRATION_SETTINGS, [organisationName]);
    try {
      await migratePglite(handle.db as never, { migrationsFolder });
    } finally {
      await handle.pglite!.exec(CLEAR_MIGRATION_SETTINGS);
    }
    return;
  }
  const client = await handle.pool!.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await client.query(SET_MIGRATION_SETTINGS, [organisationName]);
    await migratePg(drizzlePg(client, { schema }), { migrationsFolder });
  } finally {
    await client.query(CLEAR_MIGRATION_SETTINGS).catch(() => {});
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
    client.release();
  }
}

/**
 * Embedded PostgreSQL has no autovacuum daemon: left alone, its visibility maps are never set (so
 * every index-only scan, such as the grid's counts and offsets, reads the table too) and the
 * planner's statistics never follow the data. The daily job runs this after the adherence check,
 * which has just rewritten every participant's progress. PostgreSQL's own autovacuum does it there.
 */
export async function maintainEmbeddedDatabase(handle: DatabaseHandle): Promise<void> {
  if (handle.pglite) await handle.pglite.exec('vacuum (analyze)');
}

/** Readiness: the database answers and every migration has been applied. */
export async function isReady(handle: DatabaseHandle): Promise<boolean> {
  if (handle.stopped?.() !== undefined) return false;
  try {
    const result = await handle.db.execute<{ applied: number }>(
      sql`select count(*)::int as applied from drizzle.__drizzle_migrations`,
    );
    return (
      Number((result as { rows: { applied: number }[] }).rows[0]?.applied ?? 0) >= expectedMigrationCount()
    );
  } catch {
    return false;
  }
}

let cachedMigrationCount: number | undefined;
function expectedMigrationCount(): number {
  if (cachedMigrationCount === undefined) {
    // The journal lists every migration shipped with this build.
    const journal = JSON.parse(
      readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8'),
    ) as { entries: unknown[] };
    cachedMigrationCount = journal.entries.length;
  }
  return cachedMigrationCount;
}

export { schema };
