import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { BENCH_APPLICATION_NAME } from './cpu.js';
import {
  maintainEmbeddedDatabase,
  openDatabase,
  runMigrations,
  type DatabaseHandle,
} from '../../apps/server/src/db/client.js';

export type Storage = 'pglite' | 'postgres';

/**
 * The benchmark's own door to the database the server uses. PGlite belongs to one process, so in
 * embedded mode it is open only while the server is stopped (`suspend` before starting it);
 * PostgreSQL stays open beside the server, in a fresh database made for this run and dropped after.
 */
export class BenchDatabase {
  handle: DatabaseHandle | null = null;

  private constructor(
    readonly storage: Storage,
    readonly dataDir: string,
    readonly databaseUrl: string | undefined,
    private readonly adminUrl: string | undefined,
    private readonly databaseName: string | undefined,
  ) {}

  static async create(storage: Storage, dataDir: string, postgresUrl?: string): Promise<BenchDatabase> {
    if (storage === 'pglite') return new BenchDatabase(storage, dataDir, undefined, undefined, undefined);
    const name = `pathway_bench_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(postgresUrl!);
    url.pathname = `/${name}`;
    return new BenchDatabase(storage, dataDir, url.toString(), postgresUrl, name);
  }

  /** Opens the database (once), with the project's own client and migrations. */
  async open(): Promise<DatabaseHandle> {
    if (!this.handle) {
      this.handle = await openDatabase(
        this.databaseUrl
          ? { databaseUrl: this.ownUrl(), poolSize: 4 }
          : { dataDir: path.join(this.dataDir, 'db') },
      );
      await runMigrations(this.handle);
    }
    return this.handle;
  }

  /** The run's database under the benchmark's own name, so its CPU is told apart from the server's. */
  private ownUrl(): string {
    const url = new URL(this.databaseUrl!);
    url.searchParams.set('application_name', BENCH_APPLICATION_NAME);
    return url.toString();
  }

  /** Before the server starts: embedded mode hands the database over to it. */
  async suspend(): Promise<void> {
    if (this.storage === 'pglite' && this.handle) {
      await this.handle.close();
      this.handle = null;
    }
  }

  async rows<T>(text: string, params: unknown[] = []): Promise<T[]> {
    const handle = await this.open();
    if (handle.pglite) return (await handle.pglite.query<T>(text, params)).rows;
    return (await handle.pool!.query(text, params)).rows as T[];
  }

  /**
   * Runs statements on one connection. `bulk` turns triggers off (foreign-key checks included) for
   * rows that are consistent by construction, as a restore does; the caller then brings up to date
   * what those triggers keep (seen_videos: each programme's seen_count). Never for participants
   * (their tally is a trigger's).
   */
  async load(statements: string[], options: { bulk?: boolean } = {}): Promise<void> {
    const handle = await this.open();
    const all = options.bulk
      ? ['set session_replication_role = replica', ...statements, 'set session_replication_role = default']
      : statements;
    if (handle.pglite) {
      for (const statement of all) await handle.pglite.exec(statement);
      return;
    }
    const client = await handle.pool!.connect();
    try {
      for (const statement of all) await client.query(statement);
    } finally {
      client.release();
    }
  }

  /**
   * After a load: the state the database reaches in service. PGlite runs the product's own daily
   * maintenance (it has no autovacuum); PostgreSQL runs what its autovacuum would do by itself.
   */
  async settle(): Promise<void> {
    const handle = await this.open();
    if (handle.pglite) await maintainEmbeddedDatabase(handle);
    else await handle.pool!.query('vacuum (analyze)');
  }

  async dispose(): Promise<void> {
    if (this.handle) await this.handle.close();
    this.handle = null;
    if (this.adminUrl) {
      const admin = new pg.Client({ connectionString: this.adminUrl });
      await admin.connect();
      await admin.query(`drop database if exists ${this.databaseName} with (force)`);
      await admin.end();
    }
  }
}
