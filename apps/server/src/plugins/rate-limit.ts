import rateLimit from '@fastify/rate-limit';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../db/client.js';

type IncrCallback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * Counters in PostgreSQL, so every web instance behind a load balancer counts against the same
 * limits (DESIGN.md: no state in one instance's memory). One upsert per request: a fixed window
 * that starts again once it has ended; the count is incremented in SQL, so concurrent requests on
 * several instances all count. Ended windows are swept every ten minutes, off the request's path.
 */
function databaseStore(db: Database) {
  return class DatabaseRateLimitStore {
    constructor(
      _options: unknown,
      private readonly prefix = '',
    ) {}

    incr(key: string, callback: IncrCallback, timeWindow: number): void {
      const fullKey = `${this.prefix}${key}`;
      db.execute<{ count: number; ttl_ms: number }>(
        sql`insert into rate_limit_counters (key, count, window_ends_at)
            values (${fullKey}, 1, now() + ${timeWindow} * interval '1 millisecond')
            on conflict (key) do update set
              count = case when rate_limit_counters.window_ends_at <= now() then 1 else rate_limit_counters.count + 1 end,
              window_ends_at = case when rate_limit_counters.window_ends_at <= now()
                then now() + ${timeWindow} * interval '1 millisecond' else rate_limit_counters.window_ends_at end
            returning count, greatest(0, extract(epoch from window_ends_at - now()) * 1000)::int as ttl_ms`,
      ).then(
        (result) => {
          const row = (result as { rows: { count: number; ttl_ms: number }[] }).rows[0];
          if (!row) return callback(new Error('rate limit counter not returned'));
          callback(null, { current: Number(row.count), ttl: Number(row.ttl_ms) });
        },
        (error: Error) => callback(error),
      );
    }

    child(routeOptions: { routeInfo?: { method?: string; url?: string } }) {
      const route = routeOptions.routeInfo;
      return new DatabaseRateLimitStore(routeOptions, `${route?.method ?? ''} ${route?.url ?? ''}|`);
    }
  };
}

/** Removes windows that ended over an hour ago. */
export async function pruneRateLimitCounters(db: Database): Promise<void> {
  await db.execute(sql`delete from rate_limit_counters where window_ends_at < now() - interval '1 hour'`);
}

/**
 * Request rate limits, off by default (`global: false`): a route opts in with
 * `config: { rateLimit: { max, timeWindow, ... } }`, or adds `app.rateLimit({...})` as an
 * onRequest hook for a second limit of its own (the sign-in's overall limit). Counters live in
 * memory with the embedded database (one process) and in PostgreSQL otherwise (many processes).
 * A store that fails (the database is down) lets the request through rather than lock everyone out.
 */
export const rateLimitPlugin = fp(
  async (app: FastifyInstance, opts: { db: Database; shared: boolean }) => {
    await app.register(rateLimit, {
      global: false,
      skipOnError: true,
      ...(opts.shared ? { store: databaseStore(opts.db) as never } : {}),
    });
    if (opts.shared) {
      const sweep = setInterval(() => void pruneRateLimitCounters(opts.db).catch(() => {}), 10 * 60_000);
      sweep.unref();
      app.addHook('onClose', async () => clearInterval(sweep));
    }
  },
  { name: 'pathway-rate-limit' },
);
