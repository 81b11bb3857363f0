/**
 * `node bench/pglite-worker-trial.mjs inline|worker <PGlite data dir> [seconds]`
 *
 * Issue 14's question whether PGlite in a worker thread pays: the same grid-like request (a page of
 * 100 participants and a count, then the page as JSON) from 10 concurrent callers, with PGlite in
 * this thread (inline) or in a worker_threads Worker that answers the statements by message
 * (worker). Prints requests per second and the process's CPU per request (every thread). Not a
 * figure of `npm run bench`, and the server does not run PGlite this way (see bench/results.md).
 * Run it on a copy of a data directory the server is not using.
 */
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import v8 from 'node:v8';
import { PGlite } from '@electric-sql/pglite';
v8.setFlagsFromString('--wasm-tiering-budget=180000000');
const PAGE = `select p.participant_id, first_name, last_name, date_of_birth, phone_number, address, days_behind, adherence, created_at
  from participants p join participant_adherence a using (participant_id)
  where p.participant_id > $1 order by p.participant_id limit 100`;
if (!isMainThread) {
  const db = new PGlite(workerData.dir);
  await db.waitReady;
  parentPort.on('message', async ({ id, sql, params }) => {
    const r = await db.query(sql, params, { rowMode: 'array' });
    parentPort.postMessage({ id, rows: r.rows });
  });
  parentPort.postMessage({ ready: true });
} else {
  const [mode, dir, seconds = '8'] = process.argv.slice(2);
  let run;
  if (mode === 'inline') {
    const db = new PGlite(dir);
    await db.waitReady;
    run = async (sql, params) => (await db.query(sql, params, { rowMode: 'array' })).rows;
  } else {
    const w = new Worker(new URL(import.meta.url), { workerData: { dir } });
    const pending = new Map();
    let next = 0;
    await new Promise((r) => w.once('message', r));
    w.on('message', ({ id, rows }) => {
      pending.get(id)(rows);
      pending.delete(id);
    });
    run = (sql, params) =>
      new Promise((resolve) => {
        const id = next++;
        pending.set(id, resolve);
        w.postMessage({ id, sql, params });
      });
  }
  const request = async () => {
    const rows = await run(PAGE, [Math.floor(Math.random() * 2800)]);
    await run('select count(*)::int from participants where adherence = $1', [1]);
    return JSON.stringify(
      rows.map((r) => ({
        id: r[0],
        first: r[1],
        last: r[2],
        dob: r[3],
        phone: r[4],
        address: r[5],
        behind: r[6],
        state: r[7],
        created: r[8],
      })),
    );
  };
  for (let i = 0; i < 200; i++) await request(); // warm-up
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  let done = 0;
  const end = t0 + Number(seconds) * 1000;
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (performance.now() < end) {
        await request();
        done++;
      }
    }),
  );
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  const cpu = (c.user + c.system) / 1000;
  console.log(
    `${mode}: ${((done / wall) * 1000).toFixed(0)} req/s, CPU ${(cpu / done).toFixed(2)} ms/req (process, all threads), ${done} requests in ${(wall / 1000).toFixed(1)} s; load ${(await import('node:os')).loadavg()[0].toFixed(1)}`,
  );
  process.exit(0);
}
