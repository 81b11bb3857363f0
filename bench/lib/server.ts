import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from './paths.js';
import { benchSecretsKey } from './secrets.js';

export interface RunningServer {
  url: string;
  dataDir: string;
  /** The server process itself (node running main.ts), for its memory and CPU. */
  pid: number;
  stop(): Promise<void>;
}

/** How much of the server's output is kept for an error message (the log of a load run is huge). */
const KEPT_OUTPUT = 20_000;

/**
 * Starts the real server (apps/server/src/main.ts) as its own process on loopback, as
 * `npm start` runs it, and resolves once it listens. Only the tail of its output is kept.
 */
export function startServer(options: {
  dataDir: string;
  databaseUrl?: string;
  nodeArgs?: string[];
  /** After the script, e.g. `--role web`. */
  args?: string[];
}): Promise<RunningServer> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: options.dataDir,
    SECRETS_KEY: benchSecretsKey(),
    LOGIN_LIMIT_PER_ADDRESS: '100000',
    DATABASE_URL: options.databaseUrl,
    LOG_TO_STDOUT: 'true',
    // One load generator on one address plays many tablets: the per-address and per-device
    // limits of calls 1 and 2 would answer 429 instead of measuring the call.
    DEVICE_RATE_LIMIT_PER_DEVICE: '1000000',
    DEVICE_RATE_LIMIT_PER_ADDRESS: '1000000',
  };
  if (!options.databaseUrl) delete env.DATABASE_URL;
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...(options.nodeArgs ?? []),
      '--import',
      'tsx',
      path.join(repoRoot, 'apps/server/src/main.ts'),
      ...(options.args ?? []),
    ],
    {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  const keep = (chunk: Buffer) => {
    out = (out + chunk.toString()).slice(-KEPT_OUTPUT);
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start within 180 s:\n${out}`));
    }, 180_000);
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${out}`));
    };
    child.once('exit', onExit);
    child.stderr!.on('data', keep);
    child.stdout!.on('data', (chunk: Buffer) => {
      keep(chunk);
      const match = out.match(/"port":(\d+),"storage"/);
      if (!match) return;
      clearTimeout(timer);
      child.off('exit', onExit);
      child.stdout!.removeAllListeners('data');
      child.stdout!.on('data', keep);
      resolve({
        url: `http://127.0.0.1:${match[1]}`,
        dataDir: options.dataDir,
        pid: child.pid!,
        stop: () =>
          new Promise<void>((done, fail) => {
            if (child.exitCode !== null) return done();
            const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
            child.once('exit', (code, signal) => {
              clearTimeout(killer);
              if (code === 0 || signal === 'SIGTERM') done();
              else fail(new Error(`server stopped with ${code ?? signal}:\n${out}`));
            });
            child.kill('SIGTERM');
          }),
      });
    });
  });
}
