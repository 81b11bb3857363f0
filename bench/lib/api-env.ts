import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BenchRow } from './row.js';
import { CpuMeter, formatCpu, perRequestMs, type CpuUse } from './cpu.js';
import { BenchDatabase, type Storage } from './database.js';
import { createBenchAdmin, signIn, type BenchAdmin } from './http.js';
import { repoRoot } from './paths.js';
import { formatFrames, topFrames } from './profile.js';
import { startServer, type RunningServer } from './server.js';

/** Where each API figure's CPU profile is kept (ignored by git). */
export const PROFILES_DIR = path.join(repoRoot, 'bench/profiles');

/** A measured run whose profile samples are summed once the server has stopped and written it. */
interface ProfiledRun {
  figure: string;
  use: CpuUse;
}

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

  private profiled: ProfiledRun[] = [];

  /**
   * Starts the server for `work`. With a `profile` name it runs under `node --cpu-prof`: the
   * profile is kept as bench/profiles/<storage>-<profile>.cpuprofile, and each run measured with
   * `addCpu` gets a row with the top five frames of the samples inside its window.
   */
  async withServer<T>(
    work: (server: RunningServer, cpu: CpuMeter) => Promise<T>,
    profile?: string,
  ): Promise<T> {
    this.admin ??= await createBenchAdmin(this.db);
    await this.db.suspend();
    const profileDir = profile ? path.join(PROFILES_DIR, `.run-${process.pid}-${Date.now()}`) : undefined;
    if (profileDir) mkdirSync(profileDir, { recursive: true });
    const server = await startServer({
      dataDir: this.dataDir,
      databaseUrl: this.db.databaseUrl,
      nodeArgs: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
    });
    this.profiled = [];
    let result: T;
    try {
      if (!this.cookie) this.cookie = await signIn(server.url, this.admin);
      result = await work(server, new CpuMeter(server.pid, this.db));
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
    if (profileDir) this.reportProfile(profileDir, profile!);
    return result;
  }

  /**
   * `count` web processes (`--role web`, as behind a load balancer) on the run's PostgreSQL
   * database; the in-process job workers are left out, as they would run as a worker process.
   */
  async withWebInstances<T>(
    count: number,
    work: (servers: RunningServer[], cpu: CpuMeter) => Promise<T>,
  ): Promise<T> {
    if (this.storage !== 'postgres') throw new Error('several web instances need PostgreSQL');
    this.admin ??= await createBenchAdmin(this.db);
    const servers: RunningServer[] = [];
    try {
      for (let i = 0; i < count; i += 1) {
        servers.push(
          await startServer({
            dataDir: this.dataDir,
            databaseUrl: this.db.databaseUrl,
            args: ['--role', 'web'],
          }),
        );
      }
      if (!this.cookie) this.cookie = await signIn(servers[0]!.url, this.admin);
      return await work(
        servers,
        new CpuMeter(
          servers.map((s) => s.pid),
          this.db,
        ),
      );
    } finally {
      for (const server of servers) await server.stop().catch(() => {});
    }
  }

  /** A row with the CPU time per request of a measured run (server + database). */
  addCpu(figure: string, use: CpuUse, conditions: string, goalMs?: number): void {
    const per = perRequestMs(use);
    this.add({
      figure: `${figure}: CPU per request`,
      value: formatCpu(use, this.storage),
      goal: goalMs === undefined ? '' : `≤ ${goalMs} ms CPU`,
      met: goalMs === undefined ? null : per.total <= goalMs,
      cpuMsPerRequest: per.total,
      conditions: `${conditions}; ${use.requests.toLocaleString('en-GB')} requests in ${(use.wallMs / 1000).toFixed(1)} s; /proc/<pid>/stat utime+stime of the server process${this.storage === 'postgres' ? ' and of its PostgreSQL backends' : ''}, summed over the run / requests (${per.total.toFixed(3)} ms)`,
    });
    this.profiled.push({ figure, use });
  }

  private reportProfile(profileDir: string, profile: string): void {
    const written = readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'));
    if (!written) {
      rmSync(profileDir, { recursive: true, force: true });
      for (const run of this.profiled) {
        this.add({
          figure: `${run.figure}: CPU profile`,
          value: 'no profile written',
          goal: '',
          met: null,
          conditions: 'the server did not exit cleanly',
        });
      }
      return;
    }
    const kept = path.join(PROFILES_DIR, `${this.storage}-${profile}.cpuprofile`);
    renameSync(path.join(profileDir, written), kept);
    rmSync(profileDir, { recursive: true, force: true });
    for (const run of this.profiled) {
      const { frames, samples } = topFrames(kept, run.use.window);
      this.add({
        figure: `${run.figure}: top five frames (self time)`,
        value: formatFrames(frames),
        goal: '',
        met: null,
        conditions: `node --cpu-prof of the server, ${samples.toLocaleString('en-GB')} busy samples inside the measured run; bench/profiles/${path.basename(kept)}`,
      });
    }
    this.profiled = [];
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
