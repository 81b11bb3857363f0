import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { request, type FullConfig } from '@playwright/test';
import * as OTPAuth from 'otpauth';
import { buildServerIfStale, cliBundle, serverBundle } from '../../../scripts/build-server.mjs';
import { E2E_ENV, type WorkerAdmin } from './env';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
// What `npm start` runs: the browser suite tests the server an operator runs, not its sources
// through tsx (a bundling fault once failed every new staff password there while every test of the
// sources passed).
export { serverBundle };

/** The port the server logged once it listened (it starts on PORT=0, so any free port). */
export function waitForPort(server: ChildProcess, output: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`The server did not start in 60 s:\n${output.join('\n')}`)),
      60_000,
    );
    let pending = '';
    server.stdout!.setEncoding('utf8');
    server.stdout!.on('data', (chunk: string) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        // Keep the tail of the log for a failure message; the rest is in DATA_DIR/logs.
        output.push(line);
        if (output.length > 200) output.shift();
        if (!line.includes('Pathway is ready on')) continue;
        clearTimeout(timer);
        resolve((JSON.parse(line) as { port: number }).port);
      }
    });
    server.stderr!.setEncoding('utf8');
    server.stderr!.on('data', (chunk: string) => {
      output.push(chunk);
      if (output.length > 200) output.shift();
    });
    server.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The server stopped (exit code ${code}) before it was ready:\n${output.join('\n')}`));
    });
  });
}

export async function waitForReady(baseURL: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const ready = await fetch(`${baseURL}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${baseURL}/readyz did not answer 200 within 60 s`);
}

let stopping = false;

function stop(server: ChildProcess): Promise<void> {
  stopping = true;
  if (server.exitCode !== null || server.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => server.kill('SIGKILL'), 10_000);
    server.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    server.kill('SIGTERM');
  });
}

/**
 * Starts the real server with a fresh data directory (embedded PGlite), creates one full-access
 * admin per worker with the operator CLI and signs each in through the API, then hands the tests
 * the address, the admins and their sessions. Each worker acts as its own admin, with its own TOTP
 * secret: the server accepts each code of an admin once, so two workers stepping up as one shared
 * admin within the same 30 s step would refuse each other's code. The returned function is the
 * global teardown: it stops the server and removes the data directory.
 */
export default async function globalSetup(config: FullConfig): Promise<() => Promise<void>> {
  if (!existsSync(path.join(repoRoot, 'apps/web/dist/index.html'))) {
    throw new Error(
      'The console is not built: run `npm run build` (or `npm run test:e2e`, which builds it) first.',
    );
  }
  await buildServerIfStale();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pathway-e2e-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    // Every browser test signs in from loopback; throttling is tested in the API tests.
    LOGIN_LIMIT_PER_ADDRESS: '100000',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    LOG_TO_STDOUT: 'true',
  };
  delete env.DATABASE_URL;

  const output: string[] = [];
  const server = spawn(process.execPath, [serverBundle], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const teardown = async () => {
    await stop(server);
    rmSync(dataDir, { recursive: true, force: true });
    // The secrets key the embedded server generated beside its data directory.
    rmSync(`${dataDir}.secrets-key`, { force: true });
  };

  try {
    const port = await waitForPort(server, output);
    const baseURL = `http://127.0.0.1:${port}`;
    await waitForReady(baseURL);

    const admins: WorkerAdmin[] = [];
    for (let slot = 0; slot < config.workers; slot++) {
      admins.push(await createWorkerAdmin(baseURL, env, dataDir, slot));
    }

    // Workers start after this function and inherit the environment.
    process.env[E2E_ENV.baseURL] = baseURL;
    process.env[E2E_ENV.workerAdmins] = JSON.stringify(admins);
    server.once('exit', (code, signal) => {
      if (!stopping)
        process.stderr.write(
          `The e2e server stopped unexpectedly (${code ?? signal}):\n${output.join('\n')}\n`,
        );
    });
    return teardown;
  } catch (error) {
    await teardown();
    throw error;
  }
}

/**
 * The full-access admin of one worker slot: created with the CLI (as an operator creates the first
 * admin) and signed in once through the API; the worker acts as it through the saved session (a
 * TOTP code works only once, so the tests never sign this admin in again).
 */
async function createWorkerAdmin(
  baseURL: string,
  env: NodeJS.ProcessEnv,
  dataDir: string,
  slot: number,
): Promise<WorkerAdmin> {
  const password = `e2e-${randomBytes(12).toString('hex')}`;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      cliBundle,
      'create-admin',
      '--username',
      `e2e.setup.${slot}@example.org`,
      '--password',
      password,
      '--role',
      'full access',
      '--first-name',
      'Setup',
      '--last-name',
      'Admin',
      // Every slot's admin runs the instance as the first one does (the CLI makes the first admin of
      // an instance its system administrator), so a test may add organisations on any worker.
      '--system-administrator',
      '--json',
    ],
    { cwd: repoRoot, env },
  );
  const created = JSON.parse(stdout) as { user_name: string; totp_secret: string };
  const storageState = path.join(dataDir, `setup-admin-${slot}-state.json`);
  const api = await request.newContext({ baseURL });
  try {
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(created.totp_secret) });
    const login = await api.post('/login', {
      data: { user_name: created.user_name, password, mfa_token: totp.generate() },
    });
    if (!login.ok())
      throw new Error(`The setup admin could not sign in: ${login.status()} ${await login.text()}`);
    await api.storageState({ path: storageState });
  } finally {
    await api.dispose();
  }
  return { user_name: created.user_name, password, totp_secret: created.totp_secret, storageState };
}
