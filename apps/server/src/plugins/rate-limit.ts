import fastifyRateLimit, { type CreateRateLimitOptions, type RateLimitOptions } from '@fastify/rate-limit';
import { lt } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';

import { messages } from '@pathway/contract';
import type { AppContext } from '../context.js';
import type { Database } from '../db/client.js';
import { preparedArrays } from '../db/prepared.js';
import { rateLimitCounters } from '../db/schema.js';
import { instanceScope, withScope } from '../db/scope.js';
import type { Clock } from '../lib/clock.js';
import { HttpError } from '../lib/http-error.js';

type IncrCallback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * Counters in the process, for the embedded mode (one process owns the database). Time comes
 * from the application's clock, so a window ends when the clock says so (and tests can say so).
 */
class MemoryCounters {
  private readonly windows = new Map<string, { hits: number; resetAt: number }>();

  constructor(private readonly clock: Clock) {}

  incr(key: string, callback: IncrCallback, timeWindow: number): void {
    const now = this.clock.now().getTime();
    if (this.windows.size > 10_000) {
      for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
    }
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { hits: 0, resetAt: now + timeWindow };
      this.windows.set(key, window);
    }
    window.hits += 1;
    callback(null, { current: window.hits, ttl: window.resetAt - now });
  }

  child(): this {
    return this;
  }
}

/**
 * The upsert of one hit: a window that has ended starts again at 1. Run by the driver as a named
 * statement (parsed and planned once per connection), not built by Drizzle on every request: it
 * runs twice on every token-less tablet call.
 */
const RATE_LIMITS = instanceScope('rate limits');

const INCREMENT_SQL = `
  insert into rate_limit_counters as c (key, hits, reset_at)
  values ($1, 1, $2::timestamptz)
  on conflict (key) do update set
    hits = case when c.reset_at <= $3::timestamptz then 1 else c.hits + 1 end,
    reset_at = case when c.reset_at <= $3::timestamptz then excluded.reset_at else c.reset_at end
  returning hits, reset_at`;

/**
 * Counters in the database, for PostgreSQL mode: every web instance behind the load balancer
 * counts in the same row (DESIGN.md: no state in memory another instance needs). One upsert a
 * request.
 */
class DatabaseCounters {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  incr(key: string, callback: IncrCallback, timeWindow: number): void {
    const now = this.clock.now();
    // Counted before anyone is known (a sign-in, a tablet's first calls): the instance's counters.
    withScope(RATE_LIMITS, () =>
      preparedArrays(this.db, 'rate-limit.increment.v1', INCREMENT_SQL, [
        key,
        new Date(now.getTime() + timeWindow).toISOString(),
        now.toISOString(),
      ]),
    ).then((rows) => {
      const [hits, resetAt] = rows[0] as [number, Date];
      callback(null, { current: hits, ttl: Math.max(0, resetAt.getTime() - now.getTime()) });
    }, callback);
  }

  child(): this {
    return this;
  }
}

/** Ended windows are only clutter; the daily job removes them. */
export async function pruneRateLimitCounters(db: Database, now: Date): Promise<number> {
  const removed = await db
    .delete(rateLimitCounters)
    .where(lt(rateLimitCounters.reset_at, now))
    .returning({ key: rateLimitCounters.key });
  return removed.length;
}

/** The 429 every limit answers: `{ message }` (a route may give its own text) and `Retry-After`. */
function tooMany(message: (seconds: number) => string) {
  return (_request: FastifyRequest, context: { statusCode: number; ttl: number }) =>
    new HttpError(context.statusCode, message(Math.max(1, Math.ceil(context.ttl / 1000))));
}

export const defaultRateLimitMessage = (seconds: number) => messages.rateLimit.tooMany(seconds);

/**
 * @fastify/rate-limit, registered once with `global: false`: a route opts in with
 * `config: { rateLimit: {...} }`. Counters live in memory with the embedded database and in the
 * database with PostgreSQL.
 */
export const rateLimitPlugin = fp(
  async (app: FastifyInstance, { ctx }: { ctx: AppContext }) => {
    const counters =
      ctx.database.pool !== undefined
        ? new DatabaseCounters(ctx.db, ctx.clock)
        : new MemoryCounters(ctx.clock);
    await app.register(fastifyRateLimit, {
      global: false,
      // A store that fails (the database is down) lets the request through rather than lock
      // every tablet and every admin out; the sign-in's own lock still holds.
      skipOnError: true,
      // The store is built by the plugin with `new`; ours needs the context, so it is closed over.
      store: function Store() {
        return counters;
      } as unknown as CreateRateLimitOptions['store'],
      addHeadersOnExceeding: {
        'x-ratelimit-limit': false,
        'x-ratelimit-remaining': false,
        'x-ratelimit-reset': false,
      },
      addHeaders: {
        'x-ratelimit-limit': false,
        'x-ratelimit-remaining': false,
        'x-ratelimit-reset': false,
        'retry-after': true,
      },
      errorResponseBuilder: tooMany(defaultRateLimitMessage),
    });
  },
  { name: 'pathway-rate-limit' },
);

/** Key helpers: a name for the limit, then what is counted. */
export const keyByAddress =
  (name: string) =>
  (request: FastifyRequest): string =>
    `${name}:address:${request.ip}`;

export const keyByParam =
  (name: string, param: string) =>
  (request: FastifyRequest): string => {
    const value = (request.params as Record<string, unknown>)[param];
    const text = typeof value === 'string' ? value : '';
    return `${name}:${param}:${text.slice(0, 100).toLowerCase()}`;
  };

/** Route options of one limit, with its own refusal text. */
export function routeRateLimit(
  options: RateLimitOptions & { max: number; timeWindow: number },
  message: (seconds: number) => string = defaultRateLimitMessage,
): RateLimitOptions {
  return { ...options, errorResponseBuilder: tooMany(message) };
}

/**
 * A further limit on a route that already has one in its config. The library runs one limit hook
 * per request, so a second key (say per device id beside per address) is checked here with the
 * same counters and answered the same way.
 */
export function extraRateLimit(
  app: FastifyInstance,
  options: { max: number; timeWindow: number; keyGenerator: (request: FastifyRequest) => string },
  message: (seconds: number) => string = defaultRateLimitMessage,
): onRequestAsyncHookHandler {
  const check = app.createRateLimit(options);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const result = await check(request);
    if (result.isAllowed || !result.isExceeded) return;
    reply.header('retry-after', result.ttlInSeconds);
    throw new HttpError(429, message(Math.max(1, result.ttlInSeconds)));
  };
}
