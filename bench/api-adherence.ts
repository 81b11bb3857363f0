import path from 'node:path';
import { addDays } from '@pathway/contract';
import { loadConfig } from '../apps/server/src/config.js';
import { createLogger } from '../apps/server/src/logging.js';
import { runAdherenceCheck } from '../apps/server/src/modules/adherence/check.js';
import { programmeToday } from '../apps/server/src/lib/programme-day.js';
import { closeContext, createContext } from '../apps/server/src/runtime.js';
import type { ApiEnvironment } from './lib/api-env.js';
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
  try {
    const today = programmeToday(ctx);
    for (let round = 0; round < rounds; round += 1) {
      const started = performance.now();
      const result = await runAdherenceCheck(ctx, { today: addDays(today, round) });
      times.push(performance.now() - started);
      if (!result.ran || result.participants_checked !== participants) {
        throw new Error(`adherence check did not check every participant: ${JSON.stringify(result)}`);
      }
    }
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
    conditions: `${count(seenVideos)} seen-video rows; one transaction; median of ${rounds} consecutive days (${times.map((t) => seconds(t)).join(', ')})`,
  });
}
