import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AppContext } from './context.js';
import { commands, parseCommandArgs } from './commands.js';
import { HttpError } from './lib/http-error.js';

/** A Unix socket in the data directory (or tmp, when that path is too long for a socket). */
export function controlSocketPath(dataDir: string): string {
  const preferred = path.join(dataDir, 'control.sock');
  if (preferred.length < 100) return preferred;
  const digest = createHash('sha256').update(dataDir).digest('hex').slice(0, 16);
  return path.join(os.tmpdir(), `pathway-${digest}.sock`);
}

/**
 * Lets the CLI run operator commands inside the running server, which alone may open an
 * embedded database. Only local users with access to the data directory can reach the socket.
 */
export async function startControlChannel(ctx: AppContext): Promise<() => Promise<void>> {
  const socketPath = controlSocketPath(ctx.config.dataDir);
  rmSync(socketPath, { force: true });
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      void (async () => {
        try {
          const { command: name, args } = JSON.parse(body) as {
            command: string;
            args: Record<string, unknown>;
          };
          const command = commands[name];
          if (!command) throw new HttpError(404, `Unknown command ${name}`);
          if (command.needsStoppedServer)
            throw new HttpError(
              409,
              `${name} does not run while the server runs (${command.needsStoppedServer})`,
            );
          const result = await command.run(ctx, parseCommandArgs(command, args));
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result));
        } catch (error) {
          const status = error instanceof HttpError ? error.statusCode : 400;
          res
            .writeHead(status, { 'content-type': 'application/json' })
            .end(JSON.stringify({ message: (error as Error).message }));
        }
      })();
    });
  });
  // A backup of a large media store takes as long as it takes; the CLI waits for its answer.
  server.requestTimeout = 0;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ path: socketPath, readableAll: false, writableAll: false }, () => resolve());
  });
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      rmSync(socketPath, { force: true });
    });
}

/** The CLI side: the command's result, or undefined when no server listens on the socket. */
export function sendControlCommand(
  dataDir: string,
  command: string,
  args: Record<string, unknown>,
): Promise<Record<string, unknown> | undefined> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        socketPath: controlSocketPath(dataDir),
        method: 'POST',
        path: '/command',
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        let data = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (data += c));
        res.on('end', () => {
          const parsed = JSON.parse(data) as Record<string, unknown>;
          if (res.statusCode === 200) resolve(parsed);
          else reject(new Error(String(parsed.message)));
        });
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') resolve(undefined);
      else reject(error);
    });
    req.end(JSON.stringify({ command, args }));
  });
}
