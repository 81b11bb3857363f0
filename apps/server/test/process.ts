import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliBundle, serverBundle } from '../../../scripts/build-server.mjs';
import { createPostgresTestDatabase } from './test-databases.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** What `npm start` and `npm run cli` run, built before the run (server-bundle.setup.ts). */
export { cliBundle, serverBundle };

export interface ServerProcess {
  port: number;
  url: string;
  child: ChildProcess;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** `--role` of main.ts: web serves HTTP only, worker runs the jobs only, all (the default) both. */
export type ServerRole = 'all' | 'web' | 'worker';

/**
 * Starts the real server as its own process, from the bundle `npm start` runs
 * (apps/server/dist/bundle/main.js, built before the run by server-bundle.setup.ts), and waits until
 * it is ready. The bundle, not the sources through tsx: a file it cannot find (migrations, PGlite's
 * WASM, a lazily imported chunk, a worker thread's entry) fails here rather than on an operator's
 * machine, and a start costs about 3 s less CPU (no TypeScript transpiled at each of ~50 starts).
 */
export function startServerProcess(
  env: Record<string, string>,
  role: Exclude<ServerRole, 'worker'> = 'all',
): Promise<ServerProcess> {
  return spawnServerProcess(env, role).ready;
}

/**
 * The same, without waiting: the child and its output from the first line (a crash test may kill
 * the process before it is ready), and `ready` once it listens.
 */
export function spawnServerProcess(
  env: Record<string, string>,
  role: Exclude<ServerRole, 'worker'> = 'all',
): { child: ChildProcess; output: () => string; ready: Promise<ServerProcess> } {
  return spawnProcess(env, role, /"port":(\d+),"storage"/);
}

/** The same with stdout's lines for a person (`LOG_FORMAT=pretty`): ready once it says so. */
export function startPrettyServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  return spawnProcess({ ...env, LOG_FORMAT: 'pretty' }, 'all', /Pathway is ready on http:\/\/localhost:(\d+)/)
    .ready;
}

export type WorkerProcess = Omit<ServerProcess, 'port' | 'url'>;

/** `--role worker` (PostgreSQL only): runs the jobs, serves no HTTP; ready once it says it runs. */
export function startWorkerProcess(env: Record<string, string>): Promise<WorkerProcess> {
  return spawnProcess(env, 'worker', /"msg":"Pathway worker is running"/).ready;
}

function spawnProcess(
  env: Record<string, string>,
  role: ServerRole,
  readyLine: RegExp,
): { child: ChildProcess; output: () => string; ready: Promise<ServerProcess> } {
  const args = [serverBundle];
  if (role !== 'all') args.push('--role', role);
  const child = spawn(process.execPath, args, {
    cwd: repoRoot,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_TO_STDOUT: 'true', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const ready = new Promise<ServerProcess>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 300_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = out.match(readyLine);
      if (match) {
        clearTimeout(timer);
        child.stdout.off('data', onData);
        child.stdout.on('data', (c: Buffer) => (out += c.toString()));
        const port = Number(match[1] ?? 0);
        resolve({
          port,
          url: `http://127.0.0.1:${port}`,
          child,
          output: () => out,
          stop: (signal = 'SIGTERM') =>
            new Promise((done) => {
              // Already gone (exited, or killed by a signal): nothing to wait for.
              if (child.exitCode !== null || child.signalCode !== null) return done(child.exitCode);
              child.once('exit', (code) => done(code));
              child.kill(signal);
            }),
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${out}`));
    });
  });
  // A process killed before it was ready rejects `ready`; that is only an error for whoever awaits it.
  ready.catch(() => {});
  return { child, output: () => out, ready };
}

/**
 * Runs `npm run cli -- ...args` exactly as an operator would (from the bundle, built before the run;
 * scripts/cli.mjs).
 */
export function runCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn('npm', ['run', 'cli', '--', ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

/** In the PostgreSQL test project: a fresh database for a process-level test, and its cleanup. */
export async function processDatabaseEnv(): Promise<{
  env: Record<string, string>;
  drop: () => Promise<void>;
}> {
  if (process.env.TEST_DB !== 'postgres') return { env: {}, drop: async () => {} };
  const { url, drop } = await createPostgresTestDatabase(
    process.env.TEST_DATABASE_URL!,
    'pathway_proc',
    // A server process starts as an installation does: on an empty database (or a release's, to upgrade).
    'empty',
  );
  return {
    // Every instance on one database shares one secrets key, given to each (config.ts requires it).
    env: { DATABASE_URL: url, SECRETS_KEY: randomBytes(32).toString('base64') },
    drop,
  };
}

/**
 * Removes a test's data directory and the secrets key file an embedded server generated beside it
 * (`<DATA_DIR>.secrets-key`, and `.new` from a rotation).
 */
export function removeDataDir(dataDir: string): void {
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(`${dataDir}.secrets-key`, { force: true });
  rmSync(`${dataDir}.secrets-key.new`, { force: true });
}
