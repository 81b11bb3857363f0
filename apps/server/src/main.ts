import { setTimeout as delay } from 'node:timers/promises';
import { mkdirSync } from 'node:fs';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { startControlChannel } from './control-channel.js';
import { acquireDataDirLock } from './lib/data-dir-lock.js';
import { freeBytesSync } from './lib/disk-space.js';
import { restrictNewFiles, secureDataDir } from './lib/data-dir-modes.js';
import { createLogger } from './logging.js';
import { instanceScope, withScope } from './db/scope.js';
import { AdminService } from './modules/admin/index.js';
import type { ProcessRole } from './jobs/queue.js';
import { closeContext, createContext } from './runtime.js';
import { PATHWAY_VERSION } from './version.js';

/** `--role web|worker|all`: web serves HTTP, worker runs background jobs, all (default) does both. */
function processRole(argv: string[]): ProcessRole {
  const index = argv.indexOf('--role');
  const role = index >= 0 ? argv[index + 1] : 'all';
  if (role !== 'all' && role !== 'web' && role !== 'worker')
    throw new Error('--role must be web, worker or all');
  return role;
}

/**
 * Set once a signal asked the process to stop. Start-up work that the stop cuts short (the
 * workers starting on a queue being stopped) then fails, and that is no failure to start.
 */
let stopping = false;

async function main() {
  const startedAt = performance.now();
  // First of all: everything this process creates under DATA_DIR is its user's alone.
  restrictNewFiles();
  const role = processRole(process.argv);
  const config = loadConfig();
  const tightened = secureDataDir(config.dataDir);
  const logger = createLogger({
    level: config.logLevel,
    logDir: config.logDir,
    toStdout: config.logToStdout,
    stdoutFormat: config.logFormat,
  });
  if (tightened > 0) {
    logger.info(
      { entries: tightened },
      'DATA_DIR was readable by other users: access for group and others removed',
    );
  }
  if (!config.databaseUrl && role !== 'all') {
    throw new Error(
      'The embedded database serves one process: separate web and worker roles need DATABASE_URL',
    );
  }
  // Before the lock, whose file is the first thing written there.
  if (!config.databaseUrl) assertRoomToOpen(config.dataDir);
  const releaseLock = config.databaseUrl ? () => {} : acquireDataDirLock(config.dataDir);
  // Set once the stop below exists; a database stop before then is noticed right after.
  const onDatabaseStop = { stop: undefined as ((reason: string, code: number) => void) | undefined };
  const ctx = await createContext(config, logger, {
    role,
    onDatabaseStop: (reason) => {
      logger.fatal(
        { err: reason },
        'The embedded database could not write its write-ahead log (the disk is full) and cannot go on in ' +
          'this process. Nothing acknowledged is lost. Pathway stops now: free space in DATA_DIR, then start ' +
          'it again (a service manager restarts it); it recovers from its log.',
      );
      onDatabaseStop.stop?.('embedded database stopped', 1);
    },
  });
  // PostgreSQL serves any number of processes; only the embedded database needs the CLI to come through us.
  const stopControl = config.databaseUrl ? async () => {} : await startControlChannel(ctx);
  const app = role === 'worker' ? undefined : await buildApp(ctx);
  if (app) {
    await app.listen({ port: config.port, host: config.host });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    logger.info(
      {
        port,
        storage: ctx.database.kind,
        role,
        version: PATHWAY_VERSION,
        startup_ms: Math.round(performance.now() - startedAt),
      },
      `Pathway is ready on http://localhost:${port}`,
    );
  }
  // From the moment requests are served, a process manager's signal stops everything cleanly.
  const stop = async (signal: string, exitCode = 0) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    await stopControl();
    await app?.close();
    await closeContext(ctx);
    releaseLock();
    process.exit(exitCode);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  onDatabaseStop.stop = (reason, code) => void stop(reason, code);
  if (ctx.database.stopped?.() !== undefined) onDatabaseStop.stop('embedded database stopped', 1);

  // After listening, and after the first requests: the workers' first polls, the schedules and the
  // queue's maintenance at start are database work (the embedded database's one session, on this
  // thread) the first requests need not wait for. Jobs queued meanwhile wait in the queue, as they
  // would for a busy worker.
  // A serving process is not ended by a database lost meanwhile (its requests answer 503 until it
  // is back): the workers' start is then tried again until it succeeds. A worker process has
  // nothing else to do, so its start is part of starting, and fails it.
  if (role !== 'web') {
    if (app) {
      void (async () => {
        await delay(WORKERS_AFTER_LISTEN_MS);
        for (let attempt = 1; !stopping; attempt++) {
          try {
            await ctx.jobs.startWorkers();
            return;
          } catch (error) {
            if (stopping) return;
            logger.error(
              { err: error, attempt },
              'The background workers could not start (is the database reachable?); trying again',
            );
            await delay(Math.min(attempt, 10) * WORKERS_AFTER_LISTEN_MS);
          }
        }
      })();
    } else {
      await ctx.jobs.startWorkers();
    }
  }
  if (!app) {
    logger.info(
      {
        storage: ctx.database.kind,
        role,
        version: PATHWAY_VERSION,
        startup_ms: Math.round(performance.now() - startedAt),
      },
      'Pathway worker is running',
    );
  }

  // A hint for the operator: a database lost right after the start skips it rather than ending
  // a process that is serving.
  const admins = await withScope(instanceScope('start-up'), () =>
    new AdminService(ctx.db, ctx.secrets).count(),
  ).catch((error: unknown) => {
    logger.warn({ err: error }, 'could not count the admin users at start');
    return undefined;
  });
  if (admins === 0) {
    // Printed for the operator, outside the JSON log, so it stands out on a first start.
    process.stderr.write(
      '\nNo admin user exists yet. Create the first one with:\n' +
        '  npm run cli -- create-admin --username <name> --password <password> --role "full access" --first-name <f> --last-name <l>\n' +
        'then scan the QR code it prints with an authenticator app and sign in.\n\n',
    );
  }
}

/**
 * How long after listening the workers start: long enough for the first requests (a health check,
 * the console opened at once) to be answered first, short against any job's wait.
 */
const WORKERS_AFTER_LISTEN_MS = 1_000;

/** Below this, opening PGlite (which replays and checkpoints its log) aborts the process with no useful message. */
const ROOM_TO_OPEN_BYTES = 16 * 1024 * 1024;

function assertRoomToOpen(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true });
  const free = freeBytesSync(dataDir);
  if (free < ROOM_TO_OPEN_BYTES)
    throw new Error(
      `DATA_DIR (${dataDir}) has ${(free / 1024 / 1024).toFixed(1)} MiB free; the embedded database needs at ` +
        `least ${ROOM_TO_OPEN_BYTES / 1024 / 1024} MiB to open. Free space there, then start again.`,
    );
}

main().catch((error: unknown) => {
  // The stop under way exits (0) once everything is closed.
  if (stopping) return;
  process.stderr.write(`Pathway could not start: ${(error as Error).message}\n`);
  process.exit(1);
});
