/**
 * `npx tsx bench/adherence-plan.ts [participants] [seen videos] [--storage pglite|postgres] [--day N]`
 *
 * The plan of the daily adherence check's statement on the bench's data (bench/lib/data.ts):
 * EXPLAIN (ANALYZE, BUFFERS) in a transaction that is rolled back, so every node's real time and
 * rows show where the check spends its time. `--day N` runs the statement for the N days before
 * first (committed), so the plan is of an ordinary day rather than of the first one, when every
 * participant's position, missed days and reminders are written for the first time. Not a figure
 * of `npm run bench` (its adherence figure has a row of where the time goes): a tool for working
 * on the check. PostgreSQL comes from BENCH_DATABASE_URL, in a fresh database dropped after.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { addDays } from '@pathway/contract';
import { BenchDatabase, type Storage } from './lib/database.js';
import { addParticipants, addSeenVideos, prepareProgramme } from './lib/data.js';
import { explainAdherenceCheck, runAdherenceCheckStatement } from './lib/explain.js';

const { values, positionals } = parseArgs({
  options: { storage: { type: 'string', default: 'postgres' }, day: { type: 'string', default: '0' } },
  allowPositionals: true,
});
const participants = Number(positionals[0] ?? 20_000);
const seenVideos = Number(positionals[1] ?? participants * 10);
const storage = values.storage as Storage;
const day = Number(values.day);
const postgresUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://pathway:pathway@127.0.0.1:5432/postgres';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pathway-adherence-plan-'));
const db = await BenchDatabase.create(storage, dataDir, storage === 'postgres' ? postgresUrl : undefined);
try {
  await prepareProgramme(db);
  await addParticipants(db, 0, participants);
  await addSeenVideos(db, participants, 0, seenVideos);
  const handle = await db.open();
  const firstDay = new Date().toISOString().slice(0, 10);
  for (let before = 0; before < day; before += 1)
    await runAdherenceCheckStatement(handle.db, addDays(firstDay, before));
  const started = performance.now();
  const plan = await explainAdherenceCheck(handle.db, addDays(firstDay, day), { buffers: true });
  console.log(
    `${storage}, ${participants} participants, ${seenVideos} seen videos, day ${day}: ${Math.round(performance.now() - started)} ms\n`,
  );
  console.log(plan.join('\n'));
} finally {
  await db.dispose();
  rmSync(dataDir, { recursive: true, force: true });
}
