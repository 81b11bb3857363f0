import path from 'node:path';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import { openDatabase, runMigrations, type DatabaseHandle } from './db/client.js';
import { JobQueue, type ProcessRole } from './jobs/queue.js';
import { jobDefinitions } from './jobs/registry.js';
import { DiskReserve } from './lib/disk-space.js';
import { flushLogs } from './logging.js';
import { systemClock, type Clock } from './lib/clock.js';
import { SessionService, loadSessionSecret } from './modules/auth/sessions.js';
import { resolveVideoTools } from './modules/videos/video-tools.js';
import { createMediaStorage } from './storage/media-storage.js';

export interface ContextOverrides {
  clock?: Clock;
  database?: DatabaseHandle;
  /** Which work this process does; only 'all' and 'worker' run job handlers (after startWorkers). */
  role?: ProcessRole;
  /** Embedded mode: told once if PGlite stops and cannot go on in this process (db/embedded-stop.ts). */
  onDatabaseStop?: (reason: unknown) => void;
}

/** Opens the database, applies migrations and wires the services every module shares. */
export async function createContext(
  config: Config,
  logger: Logger,
  overrides: ContextOverrides = {},
): Promise<AppContext> {
  const database =
    overrides.database ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: path.join(config.dataDir, 'db'),
      onEmbeddedStop: overrides.onDatabaseStop,
    }));
  await runMigrations(database);
  const clock = overrides.clock ?? systemClock;
  const secret = await loadSessionSecret(database.db, config.sessionSecret);
  const jobs = await JobQueue.start(database, logger, overrides.role ?? 'all');
  const videoTools = resolveVideoTools();
  const media = await createMediaStorage(config);
  logger.info(
    { video_tools: videoTools.source, ffmpeg: videoTools.ffmpeg, media: media.blobs.kind },
    'media storage ready',
  );
  const ctx: AppContext = {
    config,
    database,
    db: database.db,
    clock,
    logger,
    sessions: new SessionService(database.db, clock, secret),
    jobs,
    media,
    videoTools,
    diskReserve: new DiskReserve(config.dataDir, config.diskReserveBytes),
  };
  for (const definition of jobDefinitions(ctx)) await jobs.define(definition);
  return ctx;
}

/** Stops background work, then closes the database. */
export async function closeContext(ctx: AppContext): Promise<void> {
  await ctx.jobs.stop();
  await ctx.database.close();
  flushLogs(ctx.logger);
}
