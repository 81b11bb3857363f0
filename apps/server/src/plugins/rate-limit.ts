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

/** A hit counted: the hits in the key's window so far, and the milliseconds left of the window. */
interface Count {
  current: number;
  ttl: number;
}

/** The counters behind every limit: @fastify/rate-limit's store, and `incrMany` for `combinedRateLimit`. */
interface Counters {
  incr(key: string, callback: IncrCallback, timeWindow: number): void;
  /** One hit on each key (distinct keys), counted together. */
  incrMany(hits: { key: string; timeWindow: number }[]): Promise<Count[]>;
  child(): Counters;
}

/**
 * Counters in the process, for the embedded mode (one process owns the database). Time comes
 * from the application's clock, so a window ends when the clock says so (and tests can say so).
 */
class MemoryCounters implements Counters {
  private readonly windows = new Map<string, { hits: number; resetAt: number }>();

  constructor(private readonly clock: Clock) {}

  incr(key: string, callback: IncrCallback, timeWindow: number): void {
    callback(null, this.count(key, timeWindow));
  }

  incrMany(hits: { key: string; timeWindow: number }[]): Promise<Count[]> {
    return Promise.resolve(hits.map(({ key, timeWindow }) => this.count(key, timeWindow)));
  }

  private count(key: string, timeWindow: number): Count {
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
    return { current: window.hits, ttl: window.resetAt - now };
  }

  child(): this {
    return this;
  }
}

const RATE_LIMITS = instanceScope('rate limits');

/**
 * The upsert of one hit on each key: a window that has ended starts again at 1. Run by the driver
 * as a named statement (parsed and planned once per connection), not built by Drizzle on every
 * request. The keys come sorted, so two requests counting the same keys lock their rows in the
 * same order.
 */
const INCREMENT_SQL = `
  insert into rate_limit_counters as c (key, hits, reset_at)
  select key, 1, reset_at from unnest($1::text[], $2::timestamptz[]) as hit(key, reset_at)
  on conflict (key) do update set
    hits = case when c.reset_at <= $3::timestamptz then 1 else c.hits + 1 end,
    reset_at = case when c.reset_at <= $3::timestamptz then excluded.reset_at else c.reset_at end
  returning key, hits, reset_at`;

/**
 * Counters in the database, for PostgreSQL mode: every web instance behind the load balancer
 * counts in the same row (DESIGN.md: no state in memory another instance needs). One upsert a
 * request.
 */
class DatabaseCounters implements Counters {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  incr(key: string, callback: IncrCallback, timeWindow: number): void {
    this.incrMany([{ key, timeWindow }]).then(([count]) => callback(null, count), callback);
  }

  async incrMany(hits: { key: string; timeWindow: number }[]): Promise<Count[]> {
    const now = this.clock.now();
    const sorted = [...hits].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    // Counted before anyone is known (a sign-in, a tablet's first calls): the instance's counters.
    const rows = await withScope(RATE_LIMITS, () =>
      preparedArrays(this.db, 'rate-limit.increment.v2', INCREMENT_SQL, [
        sorted.map((hit) => hit.key),
        sorted.map((hit) => new Date(now.getTime() + hit.timeWindow).toISOString()),
        now.toISOString(),
      ]),
    );
    const counted = new Map(
      (rows as [string, number, Date][]).map(([key, current, resetAt]) => [
        key,
        { current, ttl: Math.max(0, resetAt.getTime() - now.getTime()) },
      ]),
    );
    return hits.map(({ key }) => counted.get(key)!);
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
    const counters: Counters =
      ctx.database.pool !== undefined
        ? new DatabaseCounters(ctx.db, ctx.clock)
        : new MemoryCounters(ctx.clock);
    app.decorate('rateLimitCounters', counters);
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

declare module 'fastify' {
  interface FastifyInstance {
    /** The counters every limit counts in (rateLimitPlugin). */
    rateLimitCounters: Counters;
  }
}

export interface RateLimit {
  max: number;
  timeWindow: number;
  keyGenerator: (request: FastifyRequest) => string;
}

/**
 * Several limits on one route (say per source address and per device id), counted together on the
 * same counters as the library's: one statement on PostgreSQL for all of them, where a hook each
 * made a round trip each (two of tablet call 1's three). A request over any limit is refused, with
 * the longest wait among the limits it is over and the route's text; as with the library, every
 * request counts, and counters that cannot be reached let the request through (the sign-in's own
 * lock still holds).
 */
export function combinedRateLimit(
  app: FastifyInstance,
  limits: RateLimit[],
  message: (seconds: number) => string = defaultRateLimitMessage,
): onRequestAsyncHookHandler {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    let counts: Count[];
    try {
      counts = await app.rateLimitCounters.incrMany(
        limits.map((limit) => ({ key: limit.keyGenerator(request), timeWindow: limit.timeWindow })),
      );
    } catch (error) {
      request.log.warn({ err: error }, 'rate limit counters could not be reached: request let through');
      return;
    }
    const waits = counts.filter((count, i) => count.current > limits[i]!.max).map((count) => count.ttl);
    if (waits.length === 0) return;
    const seconds = Math.max(1, Math.ceil(Math.max(...waits) / 1000));
    reply.header('retry-after', seconds);
    throw new HttpError(429, message(seconds));
  };
}
