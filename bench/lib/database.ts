import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, runMigrations, type DatabaseHandle } from '../../apps/server/src/db/client.js';

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
        this.databaseUrl ? { databaseUrl: this.databaseUrl, poolSize: 4 } : { dataDir: path.join(this.dataDir, 'db') },
      );
      await runMigrations(this.handle);
    }
    return this.handle;
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
   * Runs statements on one connection with foreign-key triggers off: a bulk load of rows that are
   * consistent by construction, as a restore would do it.
   */
  async load(statements: string[]): Promise<void> {
    const handle = await this.open();
    if (handle.pglite) {
      await handle.pglite.exec(`set session_replication_role = replica`);
      try {
        for (const statement of statements) await handle.pglite.exec(statement);
      } finally {
        await handle.pglite.exec(`set session_replication_role = default`);
      }
      return;
    }
    const client = await handle.pool!.connect();
    try {
      await client.query(`set session_replication_role = replica`);
      for (const statement of statements) await client.query(statement);
      await client.query(`set session_replication_role = default`);
    } finally {
      client.release();
    }
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
