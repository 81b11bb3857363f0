import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { startControlChannel } from './control-channel.js';
import { acquireDataDirLock } from './lib/data-dir-lock.js';
import { createLogger } from './logging.js';
import { AdminService } from './modules/admin/service.js';
import { createContext } from './runtime.js';

async function main() {
  const startedAt = performance.now();
  const config = loadConfig();
  const logger = createLogger({ level: config.logLevel, logDir: config.logDir, toStdout: config.logToStdout });
  const releaseLock = config.databaseUrl ? () => {} : acquireDataDirLock(config.dataDir);
  const ctx = await createContext(config, logger);
  const app = await buildApp(ctx);
  const stopControl = await startControlChannel(ctx);
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  logger.info(
    { port, storage: ctx.database.kind, startup_ms: Math.round(performance.now() - startedAt) },
    `Pathway is ready on http://localhost:${port}`,
  );

  if ((await new AdminService(ctx.db).count()) === 0) {
    // Printed for the operator, outside the JSON log, so it stands out on a first start.
    process.stderr.write(
      '\nNo admin user exists yet. Create the first one with:\n' +
        '  npm run cli -- create-admin --username <name> --password <password> --role "full access" --first-name <f> --last-name <l>\n' +
        'then scan the QR code it prints with an authenticator app and sign in.\n\n',
    );
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    await stopControl();
    await app.close();
    await ctx.database.close();
    releaseLock();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`Pathway could not start: ${(error as Error).message}\n`);
  process.exit(1);
});
