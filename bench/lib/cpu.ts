import { readFileSync } from 'node:fs';
import type { BenchDatabase } from './database.js';

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** The application name of the benchmark's own connections, left out of the database's CPU. */
export const BENCH_APPLICATION_NAME = 'pathway-bench';

/** utime + stime of a process (all its threads) in ms, or null once it has gone. */
export function processCpuMs(pid: number): number | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name (field 2) may hold spaces: fields are counted after its closing parenthesis.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / TICKS_PER_SECOND;
}

interface Snapshot {
  /** process.hrtime in µs: the same monotonic clock as the timestamps of a V8 CPU profile. */
  atMicros: number;
  server: number;
  backends: Map<number, number>;
}

export interface CpuUse {
  requests: number;
  /** Server process CPU (PGlite's work included in embedded mode), ms in all. */
  serverMs: number;
  /** PostgreSQL backends serving the server, ms in all (0 in embedded mode). */
  databaseMs: number;
  /** The measured window on the profile's clock, to pick its samples. */
  window: { startMicros: number; endMicros: number };
  wallMs: number;
}

export function perRequestMs(use: CpuUse): { total: number; server: number; database: number } {
  const n = Math.max(1, use.requests);
  return {
    total: (use.serverMs + use.databaseMs) / n,
    server: use.serverMs / n,
    database: use.databaseMs / n,
  };
}

/** "2.41 ms CPU (server 1.90 + database 0.51)". */
export function formatCpu(use: CpuUse, storage: 'pglite' | 'postgres'): string {
  const per = perRequestMs(use);
  return storage === 'pglite'
    ? `${per.total.toFixed(2)} ms CPU (server process, PGlite inside)`
    : `${per.total.toFixed(2)} ms CPU (server ${per.server.toFixed(2)} + PostgreSQL ${per.database.toFixed(2)})`;
}

/**
 * CPU time spent serving a measured run: the server process's (from /proc/<pid>/stat, all its
 * threads, so garbage collection and PGlite count) and, on PostgreSQL, that of every backend
 * connected to the run's database except the benchmark's own. CPU time barely moves when the
 * machine is shared, where req/s and latency do.
 */
export class CpuMeter {
  private readonly serverPids: number[];

  /** `serverPid`: the server process, or each of several instances (summed). */
  constructor(
    serverPid: number | number[],
    private readonly db: BenchDatabase,
  ) {
    this.serverPids = Array.isArray(serverPid) ? serverPid : [serverPid];
  }

  private async backendPids(): Promise<number[]> {
    if (this.db.storage === 'pglite') return [];
    const rows = await this.db.rows<{ pid: number }>(
      `select pid from pg_stat_activity
        where datname = current_database() and backend_type = 'client backend'
          and coalesce(application_name, '') <> $1`,
      [BENCH_APPLICATION_NAME],
    );
    return rows.map((r) => r.pid);
  }

  private async snapshot(): Promise<Snapshot> {
    const backends = new Map<number, number>();
    for (const pid of await this.backendPids()) {
      const used = processCpuMs(pid);
      if (used !== null) backends.set(pid, used);
    }
    let server = 0;
    for (const pid of this.serverPids) {
      const used = processCpuMs(pid);
      if (used === null) throw new Error(`the server process ${pid} is gone`);
      server += used;
    }
    return { atMicros: Number(process.hrtime.bigint() / 1000n), server, backends };
  }

  /** Runs `work` and returns its CPU use; `requests` says how many requests it served. */
  async measure<T>(work: () => Promise<T>, requests: (result: T) => number): Promise<CpuUse & { result: T }> {
    const before = await this.snapshot();
    const started = performance.now();
    const result = await work();
    const wallMs = performance.now() - started;
    const after = await this.snapshot();
    let databaseMs = 0;
    // A backend the pool opened during the run counts from zero (its start-up is the run's too).
    for (const [pid, used] of after.backends) databaseMs += used - (before.backends.get(pid) ?? 0);
    return {
      result,
      requests: requests(result),
      serverMs: after.server - before.server,
      databaseMs,
      window: { startMicros: before.atMicros, endMicros: after.atMicros },
      wallMs,
    };
  }
}
