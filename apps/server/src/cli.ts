import path from 'node:path';
import { parseArgs } from 'node:util';
import qrcodeTerminal from 'qrcode-terminal';
import { commands, parseCommandArgs } from './commands.js';
import { loadConfig } from './config.js';
import { sendControlCommand } from './control-channel.js';
import { acquireDataDirLock } from './lib/data-dir-lock.js';
import { restrictNewFiles, secureDataDir } from './lib/data-dir-modes.js';
import { createLogger } from './logging.js';
import { closeContext, createContext } from './runtime.js';

function usage(): string {
  const lines = Object.values(commands).map((c) => `  ${c.usage}\n      ${c.description}`);
  return `Usage: npm run cli -- <command> [options]\n\nCommands:\n${lines.join('\n')}\n`;
}

async function runLocally(name: string, args: Record<string, unknown>) {
  const config = loadConfig();
  const command = commands[name]!;
  const parsedArgs = parseCommandArgs(command, args);
  if (command.standalone) return command.standalone(config, parsedArgs);
  // With PostgreSQL any number of processes may connect; PGlite must be reached through the
  // running server when there is one.
  if (!config.databaseUrl && !command.needsStoppedServer) {
    const remote = await sendControlCommand(config.dataDir, name, args);
    if (remote) return remote;
  }
  secureDataDir(config.dataDir);
  const release = config.databaseUrl
    ? () => {}
    : lockForCommand(config.dataDir, name, command.needsStoppedServer);
  const logger = createLogger({ level: config.logLevel, logDir: config.logDir, toStdout: false });
  const ctx = await createContext(config, logger, { role: 'web' });
  try {
    return await command.run(ctx, parsedArgs);
  } finally {
    await closeContext(ctx);
    release();
  }
}

function lockForCommand(dataDir: string, name: string, needsStoppedServer: string | undefined) {
  try {
    return acquireDataDirLock(dataDir);
  } catch (error) {
    const holder = /in use by process (\d+)/.exec((error as Error).message)?.[1];
    if (!needsStoppedServer || !holder) throw error;
    throw new Error(
      `${name} does not run while the server runs (${needsStoppedServer}). The server (process ${holder}) holds ${dataDir}: stop it, run the command, then start the server again.`,
    );
  }
}

function printForPerson(name: string, result: Record<string, unknown>) {
  if (name === 'create-admin') {
    process.stdout.write(
      `Admin user created.\n  id: ${String(result.admin_user_id)}\n  user name: ${String(result.user_name)}\n  role: ${String(result.role)}\n` +
        `  TOTP secret: ${String(result.totp_secret)}\n\nScan this QR code with an authenticator app (Google Authenticator, Microsoft Authenticator, ...):\n`,
    );
    qrcodeTerminal.generate(String(result.otpauth_url), { small: true }, (qr) =>
      process.stdout.write(`${qr}\n`),
    );
    process.stdout.write(`\nOr enter this URL in the app: ${String(result.otpauth_url)}\n`);
    return;
  }
  if (name === 'rotate-secrets-key') {
    process.stdout.write(
      `Secrets key rotated: ${String(result.totp_secrets)} TOTP secret(s) re-sealed, key ${String(result.previous_key_id)} -> ${String(result.key_id)}.\n` +
        `New key: ${String(result.key_file)}\n\nNext: ${String(result.next_steps)}\n`,
    );
    return;
  }
  for (const [key, value] of Object.entries(result)) process.stdout.write(`${key}: ${String(value)}\n`);
}

async function main() {
  // As the server does: what the CLI creates (a new DATA_DIR, a restore, a backup archive) is private.
  restrictNewFiles();
  const [name, ...rest] = process.argv.slice(2);
  if (!name || name === '--help' || name === 'help' || !commands[name]) {
    process.stderr.write(usage());
    process.exit(name && name !== '--help' && name !== 'help' ? 2 : 0);
  }
  const command = commands[name];
  const options: Record<string, { type: 'string' | 'boolean' }> = { json: { type: 'boolean' } };
  for (const option of command.options) options[option] = { type: 'string' };
  for (const flag of command.flags ?? []) options[flag] = { type: 'boolean' };
  const { values, positionals } = parseArgs({
    args: rest,
    options,
    strict: true,
    allowPositionals: Boolean(command.positional),
  });
  const { json, ...args } = values as Record<string, unknown>;
  if (command.positional && positionals.length > 0) {
    if (positionals.length > 1) throw new Error(`Usage: npm run cli -- ${command.usage}`);
    args[command.positional] = positionals[0];
  }
  // The server that may run the command has its own working directory.
  for (const option of command.pathOptions ?? []) {
    if (typeof args[option] === 'string') args[option] = path.resolve(args[option]);
  }
  const result = await runLocally(name, args);
  if (json) process.stdout.write(`${JSON.stringify(result)}\n`);
  else printForPerson(name, result);
}

main().catch((error: unknown) => {
  process.stderr.write(`Error: ${(error as Error).message}\n`);
  process.exit(1);
});
