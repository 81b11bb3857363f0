import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { startControlChannel } from './control-channel.js';
import { acquireDataDirLock } from './lib/data-dir-lock.js';
import { restrictNewFiles, secureDataDir } from './lib/data-dir-modes.js';
import { createLogger } from './logging.js';
import { AdminService } from './modules/admin/service.js';
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
  const releaseLock = config.databaseUrl ? () => {} : acquireDataDirLock(config.dataDir);
  const ctx = await createContext(config, logger, { role });
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
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    await stopControl();
    await app?.close();
    await closeContext(ctx);
    releaseLock();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  // After listening: the first polls and the queue's maintenance at start are database work the
  // first requests need not wait for. Jobs queued meanwhile wait in the queue, as they would for
  // a busy worker.
  if (role !== 'web') await ctx.jobs.startWorkers();
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

  if ((await new AdminService(ctx.db, ctx.secrets).count()) === 0) {
    // Printed for the operator, outside the JSON log, so it stands out on a first start.
    process.stderr.write(
      '\nNo admin user exists yet. Create the first one with:\n' +
        '  npm run cli -- create-admin --username <name> --password <password> --role "full access" --first-name <f> --last-name <l>\n' +
        'then scan the QR code it prints with an authenticator app and sign in.\n\n',
    );
  }
}

main().catch((error: unknown) => {
  // The stop under way exits (0) once everything is closed.
  if (stopping) return;
  process.stderr.write(`Pathway could not start: ${(error as Error).message}\n`);
  process.exit(1);
});
