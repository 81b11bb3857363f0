import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface ServerProcess {
  port: number;
  url: string;
  child: ChildProcess;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * What the process runs: the TypeScript sources through tsx (most tests), or the bundle that
 * `npm start` builds with esbuild and runs (apps/server/dist/bundle/main.js, built before the run
 * by server-bundle.setup.ts).
 */
export type ServerEntry = 'source' | 'bundle';

/**
 * Builds the bundle `npm start` runs, as `npm start` does (scripts/build-server.mjs), when a source
 * is newer than it. Only from a global setup (server-bundle.setup.ts), before any test file runs:
 * a build replaces the whole directory, under any bundled server that is running.
 */
export async function buildServerBundleIfStale(): Promise<void> {
  // A path, not a module name: the build script is plain JavaScript outside the type-checked tree.
  const script = pathToFileURL(path.join(repoRoot, 'scripts/build-server.mjs')).href;
  const { buildServer, serverBundleIsStale } = (await import(script)) as {
    buildServer: () => Promise<void>;
    serverBundleIsStale: () => boolean;
  };
  if (serverBundleIsStale()) await buildServer();
}

/** `--role` of main.ts: web serves HTTP only, worker runs the jobs only, all (the default) both. */
export type ServerRole = 'all' | 'web' | 'worker';

/** Starts the real server as its own process and waits until it is ready. */
export function startServerProcess(
  env: Record<string, string>,
  entry: ServerEntry = 'source',
  role: Exclude<ServerRole, 'worker'> = 'all',
): Promise<ServerProcess> {
  return spawnServerProcess(env, entry, role).ready;
}

/**
 * The same, without waiting: the child and its output from the first line (a crash test may kill
 * the process before it is ready), and `ready` once it listens.
 */
export function spawnServerProcess(
  env: Record<string, string>,
  entry: ServerEntry = 'source',
  role: Exclude<ServerRole, 'worker'> = 'all',
): { child: ChildProcess; output: () => string; ready: Promise<ServerProcess> } {
  return spawnProcess(env, entry, role, /"port":(\d+),"storage"/);
}

export type WorkerProcess = Omit<ServerProcess, 'port' | 'url'>;

/** `--role worker` (PostgreSQL only): runs the jobs, serves no HTTP; ready once it says it runs. */
export function startWorkerProcess(env: Record<string, string>): Promise<WorkerProcess> {
  return spawnProcess(env, 'source', 'worker', /"msg":"Pathway worker is running"/).ready;
}

function spawnProcess(
  env: Record<string, string>,
  entry: ServerEntry,
  role: ServerRole,
  readyLine: RegExp,
): { child: ChildProcess; output: () => string; ready: Promise<ServerProcess> } {
  const args =
    entry === 'bundle'
      ? [path.join(repoRoot, 'apps/server/dist/bundle/main.js')]
      : ['--import', 'tsx', path.join(repoRoot, 'apps/server/src/main.ts')];
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

/** Runs `npm run cli -- ...args` exactly as an operator would. */
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
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `pathway_proc_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`create database ${name}`);
  await client.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    // Every instance on one database shares one secrets key, given to each (config.ts requires it).
    env: { DATABASE_URL: url.toString(), SECRETS_KEY: randomBytes(32).toString('base64') },
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
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
