import path from 'node:path';
import { addDays } from '@pathway/contract';
import { loadConfig } from '../apps/server/src/config.js';
import { createLogger } from '../apps/server/src/logging.js';
import { programmeToday } from '../apps/server/src/lib/programme-day.js';
import { runAdherenceCheck } from '../apps/server/src/modules/adherence/check.js';
import { instanceScope, withScope } from '../apps/server/src/db/scope.js';
import type { AppContext } from '../apps/server/src/context.js';
import { closeContext, createContext } from '../apps/server/src/runtime.js';
import type { ApiEnvironment } from './lib/api-env.js';
import { processCpuMs } from './lib/cpu.js';
import { explainAdherenceCheck } from './lib/explain.js';
import { count, median, seconds } from './lib/stats.js';
import { benchSecretsKey } from './lib/secrets.js';

/**
 * The daily adherence check over every participant, run as `npm run cli -- adherence-check` runs
 * it when no server holds the database: the server's own context in this process. Each round is
 * the next day's check (today, tomorrow, ...), so each does a real day's work: positions move on,
 * participants fall behind, reminders are queued.
 */
export async function measureAdherenceCheck(
  env: ApiEnvironment,
  participants: number,
  seenVideos: number,
): Promise<void> {
  const handle = await env.db.open();
  const environment: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: env.dataDir,
    SECRETS_KEY: benchSecretsKey(),
  };
  delete environment.DATABASE_URL;
  if (env.db.databaseUrl) environment.DATABASE_URL = env.db.databaseUrl;
  const config = loadConfig(environment);
  const logger = createLogger({ level: 'warn', logDir: path.join(env.dataDir, 'logs'), toStdout: false });
  const ctx = await createContext(config, logger, { database: handle, role: 'web' });
  // Each run rewrites every participant's progress: two days in PGlite (tens of seconds each), three in PostgreSQL.
  const rounds = Math.min(env.storage === 'pglite' ? 2 : 3, env.sizes.rounds);
  const times: number[] = [];
  let breakdown = '';
  // CPU of the run, which barely moves when the machine is shared: this process (PGlite inside in
  // embedded mode) and every PostgreSQL backend of the run's database (the check runs on the
  // bench's own pool here, so none is left out; the few snapshot queries are noise beside it).
  const processCpu: number[] = [];
  const databaseCpu: number[] = [];
  try {
    const today = programmeToday(ctx);
    for (let round = 0; round < rounds; round += 1) {
      const before = { process: processCpuMs(process.pid)!, backends: await backendCpu(env) };
      const started = performance.now();
      const result = await runAdherenceCheck(ctx, { today: addDays(today, round) });
      times.push(performance.now() - started);
      processCpu.push(processCpuMs(process.pid)! - before.process);
      let database = 0;
      // A backend opened during the run counts from zero.
      for (const [pid, used] of await backendCpu(env)) database += used - (before.backends.get(pid) ?? 0);
      databaseCpu.push(database);
      if (!result.ran || result.participants_checked !== participants) {
        throw new Error(`adherence check did not check every participant: ${JSON.stringify(result)}`);
      }
    }
    breakdown = await planOfTheNextDay(ctx, addDays(today, rounds));
  } finally {
    await closeContext(ctx);
    env.db.handle = null;
  }
  // The reminders these runs queued would be delivered (tens of thousands, no provider here)
  // while the next figures are measured: they are measured apart, so they go.
  await env.db.rows(`delete from push_outbox where status = 'queued'`);
  const value = median(times);
  env.add({
    figure: `daily adherence check over ${count(participants)} participants`,
    value: seconds(value),
    goal: '< 3 s',
    met: value < 3_000,
    conditions: `${count(seenVideos)} seen-video rows; one transaction; median of ${rounds} consecutive days (${times.map((t) => seconds(t)).join(', ')}); CPU per run (median): ${cpuText(median(processCpu), median(databaseCpu), env.storage)}`,
  });
  env.add({
    figure: `daily adherence check over ${count(participants)} participants: where the time goes`,
    value: breakdown,
    goal: '',
    met: null,
    conditions: `the check's statement for the day after the measured ones, EXPLAIN (ANALYZE) in a transaction rolled back (the plan's instrumentation adds to every part); each table's update or insert, and each trigger it fires, with the rows written`,
  });
}

/** "4.10 s CPU (check process 0.05 + PostgreSQL 4.05)", or the process alone with PGlite inside it. */
function cpuText(processMs: number, databaseMs: number, storage: 'pglite' | 'postgres'): string {
  return storage === 'pglite'
    ? `${seconds(processMs)} CPU (the check's process, PGlite inside)`
    : `${seconds(processMs + databaseMs)} CPU (the check's process ${seconds(processMs)} + PostgreSQL ${seconds(databaseMs)})`;
}

/** CPU used so far by each client backend of the run's PostgreSQL database (none in embedded mode). */
async function backendCpu(env: ApiEnvironment): Promise<Map<number, number>> {
  const used = new Map<number, number>();
  if (env.storage === 'pglite') return used;
  const rows = await env.db.rows<{ pid: number }>(
    `select pid from pg_stat_activity where datname = current_database() and backend_type = 'client backend'`,
  );
  for (const { pid } of rows) {
    const ms = processCpuMs(pid);
    if (ms !== null) used.set(pid, ms);
  }
  return used;
}

/**
 * Where the check's statement spends its time on an ordinary day: EXPLAIN (ANALYZE) of the next
 * day's statement, rolled back, read as each table it writes (the node's time, the rows its input
 * gave it) and each trigger those writes fire, largest first, beside the statement's total.
 */
async function planOfTheNextDay(ctx: AppContext, day: string): Promise<string> {
  const plan = await withScope(instanceScope("bench: the daily check's plan"), () =>
    explainAdherenceCheck(ctx.db, day),
  );
  const parts: { label: string; ms: number }[] = [];
  for (const [index, line] of plan.entries()) {
    const write = /->\s+(Update|Insert) on (\w+).*actual time=[\d.]+\.\.([\d.]+)/.exec(line);
    if (write) {
      // The rows it was handed: its input node's, one level down (the policies' InitPlans, whose
      // nodes sit a level deeper, are passed over).
      const childAt = line.indexOf('->') + 6;
      const child = plan
        .slice(index + 1)
        .find((l) => l.indexOf('->') === childAt && l.trimStart().startsWith('->'));
      const input = /rows=(\d+) loops/.exec(child ?? '');
      const rows = input ? `, ${count(Number(input[1]))} rows` : '';
      parts.push({ label: `${write[1]!.toLowerCase()} ${write[2]}${rows}`, ms: Number(write[3]) });
    }
    const trigger = /^Trigger (for constraint )?(\S+) on (\w+): time=([\d.]+) calls=(\d+)/.exec(line);
    if (trigger) {
      const calls = Number(trigger[5]);
      const kind = trigger[1] ? 'foreign-key check' : 'trigger';
      parts.push({
        label: `${kind} ${trigger[2]} (${calls === 1 ? 'once' : `${count(calls)} calls`})`,
        ms: Number(trigger[4]),
      });
    }
  }
  const total = Number(/Execution Time: ([\d.]+) ms/.exec(plan.join('\n'))?.[1] ?? NaN);
  const written = parts.reduce((sum, part) => sum + part.ms, 0);
  parts.sort((a, b) => b.ms - a.ms);
  return `${seconds(total)} in all: ${parts.map((p) => `${p.label} ${seconds(p.ms)}`).join('; ')}; reading every participant's programme and views and the rest ${seconds(total - written)}`;
}
