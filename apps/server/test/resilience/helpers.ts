import { mkdtempSync } from 'node:fs';
import fsp from 'node:fs/promises';
import type { ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../../src/config.js';
import type { AppContext } from '../../src/context.js';
import { rowsOf } from '../../src/db/rows.js';
import { createLogger } from '../../src/logging.js';
import { closeContext, createContext } from '../../src/runtime.js';
import { firstSite, participantBody } from '../factories.js';
import {
  processDatabaseEnv,
  removeDataDir,
  spawnServerProcess,
  startServerProcess,
  type ServerProcess,
} from '../process.js';

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

export async function processSite(
  prefix: string,
  extraEnv: Record<string, string> = {},
): Promise<ProcessSite> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `pathway-${prefix}-`));
  const db = await processDatabaseEnv();
  return {
    dataDir,
    env: {
      DATA_DIR: dataDir,
      LOGIN_LIMIT_PER_ADDRESS: '100000',
      LOGIN_LIMIT_OVERALL: '100000',
      ...db.env,
      ...extraEnv,
    },
    async cleanup() {
      await db.drop();
      // The upload store's fire-and-forget mkdir (libuv thread pool, FIFO) must be done before
      // the directory goes: queue one behind it and wait.
      await fsp.mkdir(path.join(dataDir, 'media'), { recursive: true });
      removeDataDir(dataDir);
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
  return Number(rowsOf<{ n: number | string }>(await ctx.database.db.execute(query))[0]?.n ?? 0);
}

/** Authorised devices made in one statement, for participants to be added through the API. */
export async function insertDevices(ctx: AppContext, count: number, prefix: string): Promise<string[]> {
  const site = await firstSite(ctx.database.db);
  const rows = rowsOf<{ uuid: string }>(
    await ctx.database.db.execute(sql`
      insert into authorized_devices (name, uuid, organisation_id)
      select ${prefix} || ' ' || g, left(md5(${prefix} || g), 16), ${site.organisation_id}::int
      from generate_series(1, ${count}) g
      returning uuid`),
  );
  return rows.map((r) => r.uuid);
}

/** Waits until the server's output contains `pattern` (its JSON log lines), or fails after `ms`. */
export async function waitForOutput(
  server: { output: () => string },
  pattern: RegExp,
  ms = 150_000,
): Promise<void> {
  const end = Date.now() + ms;
  while (!pattern.test(server.output())) {
    if (Date.now() > end) throw new Error(`server never logged ${pattern}:\n${server.output().slice(-4000)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** SIGKILL: no handler runs, nothing is flushed or closed; the process is simply gone. */
export async function kill(server: { child: ChildProcess }): Promise<void> {
  const { child } = server;
  if (child.exitCode !== null || child.signalCode !== null) throw new Error('the server had already exited');
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
  if (child.signalCode !== 'SIGKILL')
    throw new Error(`the server exited with ${child.exitCode} before the kill`);
}

export { removeDataDir, spawnServerProcess, startServerProcess, type ServerProcess };

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

  /** `writers` requests at a time, so some are always in flight when the server dies. */
  start(writers = 4): this {
    const writer = async () => {
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
            this.acknowledged.push({
              participant_id: created.participant_id,
              last_name: String(body.last_name),
            });
          }
        } catch {
          return; // the server is gone: whatever was not acknowledged may or may not exist
        }
      }
    };
    this.loop = Promise.all(Array.from({ length: writers }, writer)).then(() => {});
    return this;
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }

  /** Acknowledged participants missing from the database, or not as written (must be none). */
  missing(ctx: AppContext): Promise<number[]> {
    return missingParticipants(ctx, this.acknowledged);
  }
}

/**
 * Of the participants the server acknowledged (201), those missing from the database or not as
 * written (must be none): an acknowledged write is a committed write.
 */
export async function missingParticipants(
  ctx: AppContext,
  acknowledged: { participant_id: number; last_name: string }[],
): Promise<number[]> {
  const ids = acknowledged.map((a) => a.participant_id);
  if (ids.length === 0) return [];
  const found = rowsOf<{ participant_id: number; last_name: string }>(
    await ctx.database.db.execute(
      sql`select participant_id, last_name from participants where participant_id in ${sql.raw(`(${ids.map(Number).join(',')})`)}`,
    ),
  );
  const stored = new Map(found.map((r) => [Number(r.participant_id), r.last_name]));
  return acknowledged
    .filter((a) => stored.get(a.participant_id) !== a.last_name)
    .map((a) => a.participant_id);
}

/**
 * `count` participants, each with a tablet (FCM token `${tag}-<n>`) and the same set, started
 * `startedDaysAgo` days before `today`: a few set-based statements, so thousands cost little.
 * Answers the participants' ids.
 */
export async function insertEnrolledParticipants(
  ctx: AppContext,
  options: { count: number; setId: number; today: string; startedDaysAgo: number; tag: string },
): Promise<number[]> {
  const { count, setId, today, startedDaysAgo, tag } = options;
  const site = await firstSite(ctx.database.db);
  const rows = rowsOf<{ participant_id: number }>(
    await ctx.database.db.execute(sql`
      with devices as (
        insert into authorized_devices (name, uuid, organisation_id)
        select ${tag} || ' tablet ' || g, left(md5(${tag} || g), 16), ${site.organisation_id}::int
        from generate_series(1, ${count}) g
        returning authorized_device_id, name
      ), people as (
        insert into participants (first_name, last_name, date_of_birth, phone_number, address, language,
          authorized_device_id, push_notification_id, site_id, organisation_id)
        select 'Load', ${tag} || split_part(d.name, ' ', 3), '1958-03-02', '+447700900123', '1 Test Street', 'English',
               d.authorized_device_id, ${tag} || '-' || split_part(d.name, ' ', 3), ${site.site_id}::int,
               ${site.organisation_id}::int
        from devices d
        returning participant_id
      ), progress as (
        insert into fitness_participation_progress (participant_id, fitness_video_set_id, started_date, last_seen_date)
        select participant_id, ${setId}, ${today}::date - ${startedDaysAgo}::int, ${today}::date - ${startedDaysAgo}::int from people
      )
      select participant_id from people order by participant_id`),
  );
  return rows.map((r) => Number(r.participant_id));
}

/** States of the pg-boss jobs of one queue, oldest first (the archive holds completed ones after a while). */
export async function jobStates(ctx: AppContext, name: string): Promise<string[]> {
  const rows = rowsOf<{ state: string }>(
    await ctx.database.db.execute(sql`
      select state, created_on from pgboss.job where name = ${name}
      union all select state, created_on from pgboss.archive where name = ${name}
      order by created_on`),
  );
  return rows.map((r) => r.state);
}
