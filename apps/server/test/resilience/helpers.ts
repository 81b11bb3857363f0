import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../../src/config.js';
import type { AppContext } from '../../src/context.js';
import { rowsOf } from '../../src/db/rows.js';
import { createLogger } from '../../src/logging.js';
import { closeContext, createContext } from '../../src/runtime.js';
import { participantBody } from '../factories.js';
import { processDatabaseEnv, startServerProcess, type ServerProcess } from '../process.js';

/**
 * Pieces shared by the fault tests: a data directory (and, in the PostgreSQL project, a fresh
 * database) for real server processes, the product's own context opened while no server runs (to
 * prepare data and read the outcome), and a stream of acknowledged writes to count after a crash.
 */
export interface ProcessSite {
  dataDir: string;
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

export async function processSite(prefix: string, extraEnv: Record<string, string> = {}): Promise<ProcessSite> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `pathway-${prefix}-`));
  // The upload store creates this without waiting (callback mkdir); made here, no race with cleanup.
  mkdirSync(path.join(dataDir, 'media'), { recursive: true });
  const db = await processDatabaseEnv();
  return {
    dataDir,
    env: { DATA_DIR: dataDir, ...db.env, ...extraEnv },
    async cleanup() {
      await db.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Opens the site's database with the product's runtime (migrations, job queue in web role: it
 * enqueues, runs nothing) while no server process holds it, and closes it again. PGlite belongs
 * to one process, so this happens only before a start or after a stop.
 */
export async function withDatabase<T>(site: ProcessSite, work: (ctx: AppContext) => Promise<T>): Promise<T> {
  const config = loadConfig({ ...site.env, LOG_LEVEL: 'silent', LOG_TO_STDOUT: 'false' });
  const logger = createLogger({ level: 'silent', toStdout: false });
  const ctx = await createContext(config, logger, { role: 'web' });
  try {
    return await work(ctx);
  } finally {
    await closeContext(ctx);
  }
}

export async function countOf(ctx: AppContext, query: ReturnType<typeof sql>): Promise<number> {
  return Number(rowsOf<{ n: number | string }>(await ctx.db.execute(query))[0]?.n ?? 0);
}

/** Authorised devices made in one statement, for participants to be added through the API. */
export async function insertDevices(ctx: AppContext, count: number, prefix: string): Promise<string[]> {
  const rows = rowsOf<{ uuid: string }>(
    await ctx.db.execute(sql`
      insert into authorized_devices (name, uuid)
      select ${prefix} || ' ' || g, left(md5(${prefix} || g), 16)
      from generate_series(1, ${count}) g
      returning uuid`),
  );
  return rows.map((r) => r.uuid);
}

/** Waits until the server's output contains `pattern` (its JSON log lines), or fails after `ms`. */
export async function waitForOutput(server: ServerProcess, pattern: RegExp, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!pattern.test(server.output())) {
    if (Date.now() > end) throw new Error(`server never logged ${pattern}:\n${server.output().slice(-4000)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** SIGKILL: no handler runs, nothing is flushed or closed; the process is simply gone. */
export async function kill(server: ServerProcess): Promise<void> {
  const code = await server.stop('SIGKILL');
  if (server.child.signalCode !== 'SIGKILL') throw new Error(`server had already exited with ${code}`);
}

export { startServerProcess, type ServerProcess };

/**
 * Adds participants through POST /api/participant one after another until stopped (or the server
 * goes away), remembering every one the server acknowledged with 201. After a crash each of them
 * must still be there: an acknowledged write is a committed write.
 */
export class AcknowledgedWrites {
  readonly acknowledged: { participant_id: number; last_name: string }[] = [];
  attempted = 0;
  private running = true;
  private loop: Promise<void> | undefined;

  constructor(
    private readonly url: string,
    private readonly cookie: string,
    private readonly deviceUuids: string[],
  ) {}

  start(): this {
    this.loop = (async () => {
      while (this.running && this.attempted < this.deviceUuids.length) {
        const body = participantBody(this.deviceUuids[this.attempted]!);
        this.attempted++;
        try {
          const res = await fetch(`${this.url}/api/participant`, {
            method: 'POST',
            headers: { cookie: this.cookie, 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
          if (res.status === 201) {
            const created = (await res.json()) as { participant_id: number };
            this.acknowledged.push({ participant_id: created.participant_id, last_name: String(body.last_name) });
          }
        } catch {
          return; // the server is gone: whatever was not acknowledged may or may not exist
        }
      }
    })();
    return this;
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }

  /** Acknowledged participants missing from the database (must be none). */
  async missing(ctx: AppContext): Promise<number[]> {
    const ids = this.acknowledged.map((a) => a.participant_id);
    if (ids.length === 0) return [];
    const found = rowsOf<{ participant_id: number }>(
      await ctx.db.execute(sql`select participant_id from participants where participant_id in ${sql.raw(`(${ids.join(',')})`)}`),
    );
    const present = new Set(found.map((r) => Number(r.participant_id)));
    return ids.filter((id) => !present.has(id));
  }
}
