/**
 * What the system benchmarks share: a data directory (and, for PostgreSQL, a database of its own),
 * an admin made by the server's own AdminService, the real server started as `npm start` starts
 * it, a signed-in cookie through POST /login with a TOTP code, and a few small measures.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openDatabase, runMigrations, type DatabaseHandle } from '../../apps/server/src/db/client.js';
import { AdminService } from '../../apps/server/src/modules/admin/service.js';
import { totpCode } from '../../apps/server/src/modules/auth/totp.js';
import { benchSecretBox, benchSecretsKey } from '../lib/secrets.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export type Storage = 'pglite' | 'postgres';

export interface BenchDataDir {
  storage: Storage;
  dataDir: string;
  /** The environment the server needs for this data: DATA_DIR, and DATABASE_URL on PostgreSQL. */
  env: Record<string, string>;
  /** Opens the same database in this process (only while no server holds the PGlite directory). */
  open(): Promise<DatabaseHandle>;
  remove(): Promise<void>;
}

/** An empty data directory and, on PostgreSQL, a fresh database beside the others on the cluster. */
export async function createDataDir(storage: Storage, postgresUrl?: string): Promise<BenchDataDir> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `pathway-sysbench-${storage}-`));
  let databaseUrl: string | undefined;
  let dropDatabase = async () => {};
  if (storage === 'postgres') {
    if (!postgresUrl) throw new Error('the PostgreSQL run needs a server URL');
    const name = `pathway_sysbench_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(postgresUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDatabase = async () => {
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    };
  }
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    SECRETS_KEY: benchSecretsKey(),
    LOGIN_LIMIT_PER_ADDRESS: '100000',
    ...(databaseUrl && { DATABASE_URL: databaseUrl }),
  };
  return {
    storage,
    dataDir,
    env,
    async open() {
      const handle = await openDatabase({ databaseUrl, dataDir: path.join(dataDir, 'db') });
      await runMigrations(handle);
      return handle;
    },
    async remove() {
      await dropDatabase();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface BenchAdmin {
  user_name: string;
  password: string;
  totpSecret: string;
  /** The TOTP time step last signed in with: the server accepts each code once. */
  lastStep?: number;
}

const TOTP_PERIOD_MS = 30_000;

/** A full-access admin made through the server's own service (argon2 hash, TOTP enrolment). */
export async function createAdmin(handle: DatabaseHandle): Promise<BenchAdmin> {
  const admin = {
    user_name: `bench.${randomBytes(4).toString('hex')}`,
    password: `bench passphrase ${randomBytes(8).toString('hex')}`,
  };
  const created = await new AdminService(handle.db, benchSecretBox()).create({
    ...admin,
    role: 'full access',
    first_name: 'Bench',
    last_name: 'Admin',
  });
  return { ...admin, totpSecret: created.totpSecret };
}

/** A port nobody listens on now (the server must be told one: `npm start` prints no port to wait for). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface RunningServer {
  url: string;
  /** The `npm start` (or `node scripts/start.mjs`) process we spawned. */
  child: ChildProcess;
  /** Milliseconds from spawning to the first 200 from GET /readyz. */
  readyMs: number;
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts the server the way an operator does and waits for GET /readyz to answer 200, asking every
 * 10 ms (a finer poll would itself take CPU from the starting server on 2 cores).
 */
export async function startServer(
  env: Record<string, string>,
  options: { viaNpm?: boolean } = {},
): Promise<RunningServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const startedAt = performance.now();
  const [command, args] = options.viaNpm
    ? ['npm', ['start', '--silent']]
    : [process.execPath, [path.join(repoRoot, 'scripts/start.mjs')]];
  const child = spawn(command, args, {
    cwd: repoRoot,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      LOG_TO_STDOUT: 'true',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let readyMs = 0;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}:\n${out}`);
    if (performance.now() - startedAt > 120_000) {
      child.kill('SIGKILL');
      throw new Error(`the server was not ready in 120 s:\n${out}`);
    }
    const ok = await fetch(`${url}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) {
      readyMs = performance.now() - startedAt;
      break;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  return {
    url,
    child,
    readyMs,
    output: () => out,
    async stop() {
      // npm and start.mjs pass the signal on; the server has stopped only when every process under us has.
      const processes = [child.pid!, ...descendants(child.pid!)];
      if (child.exitCode === null) child.kill('SIGTERM');
      const deadline = Date.now() + 20_000;
      let killed = false;
      while (processes.some(exists)) {
        if (Date.now() > deadline + 10_000)
          throw new Error(`processes ${processes.filter(exists).join(', ')} did not go away`);
        if (Date.now() > deadline && !killed) {
          killed = true;
          for (const pid of processes.filter(exists)) process.kill(pid, 'SIGKILL');
        }
        await new Promise((r) => setTimeout(r, 20));
      }
      await exited;
    },
  };
}

/** Signs in through POST /login with the password and the code an authenticator would show. */
export async function signIn(url: string, admin: BenchAdmin): Promise<string> {
  // As a person would: a code already used is refused, so wait for the authenticator's next one.
  while (admin.lastStep !== undefined && Math.floor(Date.now() / TOTP_PERIOD_MS) <= admin.lastStep) {
    await new Promise((r) => setTimeout(r, 250));
  }
  admin.lastStep = Math.floor(Date.now() / TOTP_PERIOD_MS);
  const res = await fetch(`${url}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      user_name: admin.user_name,
      password: admin.password,
      mfa_token: totpCode(admin.user_name, admin.totpSecret),
    }),
  });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('jwt='));
  if (!cookie) throw new Error('sign-in set no session cookie');
  return cookie.split(';')[0]!;
}

/** Whether the process still exists: an exited one not yet reaped still counts (the server's lock sees it too). */
function exists(pid: number): boolean {
  return existsSync(`/proc/${pid}`);
}

/** Every process under `pid` (children first-level and below), read from /proc. */
export function descendants(pid: number): number[] {
  const found: number[] = [];
  let tasks: string[] = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return found;
  }
  for (const task of tasks) {
    let children = '';
    try {
      children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8');
    } catch {
      continue;
    }
    for (const child of children.trim().split(/\s+/).filter(Boolean).map(Number))
      found.push(child, ...descendants(child));
  }
  return found;
}

/**
 * The node process running the server, not the npm wrapper above it: scripts/start.mjs, which
 * runs the built server in its own process, or apps/server's entry when started directly.
 */
export function serverPid(server: RunningServer): number {
  const all = [server.child.pid!, ...descendants(server.child.pid!)];
  const match = all.find((pid) => {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      // The script as an argument of its own: npm's `sh -c "node scripts/start.mjs"` names it too.
      return cmdline.some((part) =>
        /^\S*(apps[\\/]server[\\/](src[\\/]main\.ts|dist[\\/]bundle[\\/]main\.js)|scripts[\\/]start\.mjs)$/.test(
          part,
        ),
      );
    } catch {
      return false;
    }
  });
  if (!match) throw new Error('could not find the server process');
  return match;
}

/** Resident set size of a process in MB (VmRSS of /proc/<pid>/status). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(status.match(/VmRSS:\s+(\d+) kB/)?.[1]);
  return kb / 1024;
}

/** CPU time (user + system) a process has used so far, in ms, from /proc/<pid>/stat. */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function formatNumber(value: number, digits = 1): string {
  return value.toLocaleString('en-GB', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export const machine = (): string =>
  `${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)} at start`;
