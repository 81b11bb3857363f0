/**
 * `npm start` on an existing data directory (a populated database) until GET /readyz answers 200,
 * median of several starts; and the resident memory of the server process (not the npm wrapper)
 * once idle after a few requests.
 */
import { participants } from '../apps/server/src/db/schema.js';
import { BENCH_SITE } from './lib/data.js';
import type { Benchmark, BenchRow } from './lib/row.js';
import {
  cpuMs,
  createAdmin,
  createDataDir,
  descendants,
  formatNumber,
  machine,
  median,
  rssMb,
  serverPid,
  signIn,
  startServer,
} from './sys-lib/server.js';

const PARTICIPANTS = 3_000;
const ROUNDS = 5;
const START_GOAL_MS = 1_500;
const RSS_GOAL_MB = 400;

const sysStartup: Benchmark = async ({ storage, postgresUrl }) => {
  const data = await createDataDir(storage, postgresUrl);
  try {
    const handle = await data.open();
    // One admin per start: each start signs in once, and a TOTP code is accepted only once.
    const admins = [];
    for (let round = 0; round < ROUNDS; round += 1) admins.push(await createAdmin(handle));
    for (let first = 0; first < PARTICIPANTS; first += 500) {
      await handle.db.insert(participants).values(
        Array.from({ length: Math.min(500, PARTICIPANTS - first) }, (_, i) => ({
          first_name: `First${first + i}`,
          last_name: `Last${first + i}`,
          date_of_birth: '1955-03-14',
          phone_number: '+447700900000',
          address: `${first + i} Bench Street, Leeds`,
          ...BENCH_SITE,
        })),
      );
    }
    await handle.close();

    // The first start may build the console and makes what a first start makes (session secret,
    // job queues); every measured start after it finds an existing data directory.
    await (await startServer(data.env, { viaNpm: true })).stop();

    const readyMs: number[] = [];
    const serverCpuMs: number[] = [];
    const allCpuMs: number[] = [];
    const idleRss: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const server = await startServer(data.env, { viaNpm: true });
      try {
        readyMs.push(server.readyMs);
        // CPU time until ready: on a busy shared machine the clock also counts waiting for a core.
        const pid = serverPid(server);
        serverCpuMs.push(cpuMs(pid));
        allCpuMs.push(
          [server.child.pid!, ...descendants(server.child.pid!)].reduce((sum, p) => sum + cpuMs(p), 0),
        );
        const cookie = await signIn(server.url, admins[round]!);
        for (const path of [
          '/api/participant?page=1&perPage=100',
          '/api/dashboard',
          '/api/videoset',
          '/',
          '/api/participant?page=3&perPage=100',
        ]) {
          const res = await fetch(`${server.url}${path}`, { headers: { cookie } });
          await res.arrayBuffer();
        }
        // Idle: requests answered, start-up work (migrations, queue maintenance) settled.
        await new Promise((r) => setTimeout(r, 3_000));
        idleRss.push(rssMb(serverPid(server)));
      } finally {
        await server.stop();
      }
    }

    const conditions = `${storage === 'pglite' ? 'PGlite' : 'PostgreSQL 15'}, ${PARTICIPANTS.toLocaleString('en-GB')} participants, median of ${ROUNDS} starts; ${machine()}`;
    const start = median(readyMs);
    const rss = median(idleRss);
    const rows: BenchRow[] = [
      {
        figure: '`npm start` to GET /readyz 200 on an existing data dir',
        value: `${formatNumber(start / 1000, 2)} s`,
        goal: '< 1.5 s',
        met: start < START_GOAL_MS,
        conditions: `${conditions}; each start: ${readyMs.map((ms) => (ms / 1000).toFixed(2)).join(', ')} s; CPU time until ready (median): server process ${formatNumber(median(serverCpuMs) / 1000, 2)} s, with npm and scripts/start.mjs ${formatNumber(median(allCpuMs) / 1000, 2)} s`,
      },
      {
        figure: 'server process RSS when idle (after sign-in and 5 requests)',
        value: `${formatNumber(rss, 0)} MB`,
        goal: '< 400 MB',
        met: rss < RSS_GOAL_MB,
        conditions: `${conditions}; VmRSS of the node server process, 3 s after its last request`,
      },
    ];
    return rows;
  } finally {
    await data.remove();
  }
};

export default sysStartup;
