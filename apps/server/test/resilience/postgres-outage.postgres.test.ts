import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@pathway/contract';
import { signedInCookie } from '../harness.js';
import {
  removeDataDir,
  startServerProcess,
  withDatabase,
  type ProcessSite,
  type ServerProcess,
} from './helpers.js';
import { PrivatePostgres, postgresBinariesPresent } from './private-postgres.js';
import { requireOfMachine } from '../environment-guard.js';

// PostgreSQL stops (immediate shutdown: every connection cut, as in a crash) while staff use the
// console: the API answers 503 with a clear message, never 500 and never hangs, /readyz says
// not ready, and once PostgreSQL is back the same server process answers 200 again by itself.
// A PostgreSQL-mode test with a cluster of its own, so it runs once: in the PostgreSQL project.
requireOfMachine(postgresBinariesPresent ? undefined : 'the PostgreSQL 15 server binaries are not installed');
/** An answer slower than this counts as hanging (the pool's connect timeout is 5 s). */
const ANSWER_BOUND_MS = 10_000;
/** The server must be answering 200 again within this long after PostgreSQL is back. */
const RECOVERY_BOUND_MS = 30_000;
const LOOPS = 6;

interface Sample {
  path: string;
  startedAt: number;
  ms: number;
  status: number; // 0: no HTTP answer at all
  message?: string;
}

describe('PostgreSQL stops under load', () => {
  let cluster: PrivatePostgres;
  let site: ProcessSite;
  let server: ServerProcess;
  let cookie: string;

  beforeAll(async () => {
    cluster = await PrivatePostgres.create();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pathway-pg-outage-'));
    site = {
      dataDir,
      env: {
        DATA_DIR: dataDir,
        DATABASE_URL: await cluster.createDatabase('pathway'),
        SECRETS_KEY: randomBytes(32).toString('base64'),
      },
      cleanup: async () => removeDataDir(dataDir),
    };
    cookie = await withDatabase(site, async (ctx) => (await signedInCookie(ctx, 'full access')).cookie);
    server = await startServerProcess(site.env);
  }, 300_000);
  afterAll(async () => {
    await server?.stop();
    cluster?.destroy();
    await site?.cleanup();
  });

  it('answers 503 with a clear message while PostgreSQL is down, and recovers without a restart', async () => {
    const samples: Sample[] = [];
    let running = true;
    const paths = ['/api/participant?page=1&limit=10', '/api/dashboard', '/readyz'];
    const loop = async (n: number) => {
      for (let i = n; running; i++) {
        const url = paths[i % paths.length]!;
        const startedAt = Date.now();
        try {
          const res = await fetch(`${server.url}${url}`, {
            headers: { cookie },
            signal: AbortSignal.timeout(ANSWER_BOUND_MS * 2),
          });
          const body = (await res.json().catch(() => ({}))) as { message?: string };
          samples.push({
            path: url,
            startedAt,
            ms: Date.now() - startedAt,
            status: res.status,
            message: body.message,
          });
        } catch {
          samples.push({ path: url, startedAt, ms: Date.now() - startedAt, status: 0 });
        }
      }
    };
    const loops = Array.from({ length: LOOPS }, (_, n) => loop(n));
    const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
    /** Polls the samples until `ready` holds (a state, not a time); fails past `boundMs`. */
    const until = async (what: string, ready: () => boolean, boundMs: number) => {
      const from = Date.now();
      while (!ready()) {
        if (Date.now() - from > boundMs) throw new Error(`${what}: not within ${boundMs} ms`);
        await pause(100);
      }
    };
    /** Every path has answered at least 3 requests that started at or after `from`. */
    const everyPathAnswered = (from: number, status?: number) =>
      paths.every(
        (p) =>
          samples.filter(
            (s) => s.path === p && s.startedAt >= from && (status === undefined || s.status === status),
          ).length >= 3,
      );

    await until('healthy answers before the stop', () => everyPathAnswered(0, 200), RECOVERY_BOUND_MS);
    const stoppingAt = Date.now();
    cluster.stop('immediate');
    const stoppedAt = Date.now();
    await until('answers while PostgreSQL is down', () => everyPathAnswered(stoppedAt), RECOVERY_BOUND_MS);
    const restartingAt = Date.now();
    cluster.start();
    const backAt = Date.now();
    let recoveredAt = 0;
    await until(
      'the API answering 200 again, and still answering',
      () => {
        const ok = samples.filter((s) => s.startedAt > backAt && s.status === 200 && s.path !== '/readyz');
        if (ok.length > 0 && !recoveredAt) recoveredAt = Math.min(...ok.map((s) => s.startedAt));
        // A second after the first 200, every path answers again (requests begun before it may
        // still have met the old connections).
        return recoveredAt > 0 && everyPathAnswered(recoveredAt + 1_000);
      },
      RECOVERY_BOUND_MS,
    ).catch(() => {
      // Judged below (recoveredAt, after), with what was answered meanwhile.
    });
    running = false;
    await Promise.all(loops);

    const before = samples.filter((s) => s.startedAt + s.ms < stoppingAt);
    const during = samples.filter((s) => s.startedAt >= stoppedAt && s.startedAt + s.ms < restartingAt);
    const after = samples.filter((s) => recoveredAt && s.startedAt >= recoveredAt + 1_000);
    // Healthy before the stop.
    expect(before.length).toBeGreaterThan(0);
    expect(before.filter((s) => s.status !== 200)).toEqual([]);
    // Down: every answer a prompt 503 with the product's message; no 500, no dropped connection.
    expect(during.length).toBeGreaterThan(0);
    expect(samples.filter((s) => s.status === 0 || (s.status >= 500 && s.status !== 503))).toEqual([]);
    expect(during.filter((s) => s.status !== 503)).toEqual([]);
    expect(during.filter((s) => s.path !== '/readyz' && s.message !== messages.generic.unavailable)).toEqual(
      [],
    );
    expect(Math.max(...samples.map((s) => s.ms))).toBeLessThan(ANSWER_BOUND_MS);
    // Back: the same process answers 200 again, and keeps doing so.
    expect(recoveredAt, 'the API did not recover').toBeGreaterThan(0);
    expect(after.length).toBeGreaterThan(0);
    expect(after.filter((s) => s.status !== 200)).toEqual([]);
    expect(server.child.exitCode).toBeNull();
    expect(server.output()).not.toMatch(/"msg":"unhandled error"/); // every failure was known for what it was

    const count = (list: Sample[], status: number) => list.filter((s) => s.status === status).length;
    console.info(
      `[resilience] PostgreSQL stopped under load: ${samples.length} requests (${LOOPS} loops); before ${before.length} (all 200); ` +
        `while down ${during.length} (${count(during, 503)} x 503, slowest ${Math.max(...during.map((s) => s.ms))} ms); ` +
        `first 200 ${recoveredAt - backAt} ms after PostgreSQL was back; after ${after.length} (all 200); 0 x 500, 0 dropped`,
    );
  }, 300_000);
});
