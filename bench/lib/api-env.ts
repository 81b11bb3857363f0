import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BenchRow } from './row.js';
import { BenchDatabase, type Storage } from './database.js';
import { createBenchAdmin, signIn, type BenchAdmin } from './http.js';
import { startServer, type RunningServer } from './server.js';

/** Sizes and rounds of the API benchmarks; `--quick` (BENCH_QUICK=1) shrinks them for a smoke run. */
export interface ApiSizes {
  participants: number[];
  seenVideos: number[];
  /** Rounds of sequential requests; each round gives a median, the figure is their median. */
  rounds: number;
  requestsPerRound: number;
  loadSeconds: number;
  loadRounds: number;
  connections: number;
}

export function apiSizes(storage: Storage): ApiSizes {
  if (process.env.BENCH_QUICK === '1') {
    return {
      participants: [200, 1000, 5000],
      seenVideos: [1000, 20_000, 50_000],
      rounds: 3,
      requestsPerRound: 10,
      loadSeconds: 2,
      loadRounds: 2,
      connections: 10,
    };
  }
  return {
    participants: [1000, 10_000, 100_000],
    // PGlite (single-threaded WebAssembly) loads about 10k rows a second here: 10M rows alone would
    // take the whole 15-minute budget, so embedded mode stops at 1M.
    seenVideos: storage === 'postgres' ? [10_000, 1_000_000, 10_000_000] : [10_000, 100_000, 1_000_000],
    rounds: 5,
    requestsPerRound: 10,
    loadSeconds: 5,
    loadRounds: 3,
    connections: 10,
  };
}

export class ApiEnvironment {
  cookie = '';
  rows: BenchRow[] = [];
  private admin: BenchAdmin | null = null;

  private constructor(
    readonly storage: Storage,
    readonly db: BenchDatabase,
    readonly dataDir: string,
    readonly sizes: ApiSizes,
  ) {}

  static async create(storage: Storage, postgresUrl?: string): Promise<ApiEnvironment> {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), `pathway-bench-${storage}-`));
    const db = await BenchDatabase.create(storage, dataDir, postgresUrl);
    await db.open();
    return new ApiEnvironment(storage, db, dataDir, apiSizes(storage));
  }

  async withServer<T>(work: (server: RunningServer) => Promise<T>): Promise<T> {
    this.admin ??= await createBenchAdmin(this.db);
    await this.db.suspend();
    const server = await startServer({ dataDir: this.dataDir, databaseUrl: this.db.databaseUrl });
    let result: T;
    try {
      if (!this.cookie) this.cookie = await signIn(server.url, this.admin);
      result = await work(server);
    } catch (error) {
      await server.stop().catch(() => {});
      throw error;
    }
    // A server that does not stop cleanly is a finding of its own, not a reason to lose the figures.
    await server.stop().catch((error: Error) => {
      const reason =
        error.message.split('\n').find((line) => /Error:|"err"/.test(line)) ?? error.message.split('\n')[0]!;
      this.add({
        figure: 'clean stop on SIGTERM after a measurement',
        value: reason.slice(0, 300),
        goal: 'exit code 0',
        met: false,
        conditions: 'see the server log',
      });
    });
    return result;
  }

  add(row: Omit<BenchRow, 'conditions'> & { conditions: string }): void {
    const entry = {
      ...row,
      conditions: `${this.storage === 'pglite' ? 'PGlite' : 'PostgreSQL 15'}; ${row.conditions}`,
    };
    this.rows.push(entry);
    console.log(
      `  ${entry.figure}: ${entry.value}${entry.goal ? ` (goal ${entry.goal}: ${entry.met ? 'met' : 'missed'})` : ''} [${entry.conditions}]`,
    );
  }

  async dispose(): Promise<void> {
    await this.db.dispose();
    // Removed when the run ends: the server context the daily check was run in (media storage
    // included) may still touch its directory after it has been closed.
    const dataDir = this.dataDir;
    process.once('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  }
}
