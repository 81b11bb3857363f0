import path from 'node:path';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import { openDatabase, runMigrations, type DatabaseHandle } from './db/client.js';
import { recordProgrammeTimeZone } from './db/programme-settings.js';
import { scopedDatabase } from './db/scoped-database.js';
import { JobQueue, type ProcessRole } from './jobs/queue.js';
import { jobDefinitions } from './jobs/registry.js';
import { DiskReserve } from './lib/disk-space.js';
import { flushLogs } from './logging.js';
import { OffsetFileClock, systemClock, type Clock } from './lib/clock.js';
import { openSecretsAtRest, SessionService, sessionSigningKey } from './modules/auth/index.js';
import { endSessionUrlOf } from './modules/sso/index.js';
import { resolveVideoTools } from './modules/videos/index.js';
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
  await runMigrations(database, { organisationName: config.organisationName });
  await recordProgrammeTimeZone(database.db, config.adherenceCheck.timeZone);
  const clock =
    overrides.clock ?? (config.clockOffsetFile ? new OffsetFileClock(config.clockOffsetFile) : systemClock);
  // Before anything reads a secret: a wrong or missing key stops the start here, with a message.
  let atRest;
  try {
    atRest = await openSecretsAtRest(database.db, config.secretsKey);
  } catch (error) {
    if (!overrides.database) await database.close();
    throw error;
  }
  const { secrets } = atRest;
  if (atRest.keyCreated)
    logger.info(
      {
        key_file: config.secretsKey.kind === 'default-file' ? config.secretsKey.path : undefined,
        key_id: secrets.keyId,
      },
      'secrets key created',
    );
  if (atRest.sealed > 0 || atRest.plainSessionKeyRemoved) {
    logger.info(
      { totp_secrets_sealed: atRest.sealed, plain_session_key_removed: atRest.plainSessionKeyRemoved },
      'secrets at rest sealed with the secrets key',
    );
  }
  const secret = sessionSigningKey(config.sessionSecret, secrets);
  // Every statement of the application from here on runs as the staff role in a scope (db/scope.ts).
  const db = scopedDatabase(database);
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
    db,
    clock,
    logger,
    secrets,
    sessions: new SessionService(db, clock, secret),
    endSessionUrl: (session, base) => endSessionUrlOf(ctx, session, base),
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
