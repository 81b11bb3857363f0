import autocannon from 'autocannon';
import { AdminService } from '../../apps/server/src/modules/admin/service.js';
import { totpCode } from '../../apps/server/src/modules/auth/totp.js';
import type { BenchDatabase } from './database.js';
import { benchSecretBox } from './secrets.js';
import { median, percentile } from './stats.js';

export interface BenchAdmin {
  user_name: string;
  password: string;
  totpSecret: string;
}

/** A full-access admin made with the server's own service, as `npm run cli -- create-admin` does. */
export async function createBenchAdmin(db: BenchDatabase): Promise<BenchAdmin> {
  const user_name = 'bench.admin@example.org';
  const password = 'a long benchmark passphrase';
  const created = await new AdminService((await db.open()).db, benchSecretBox()).create({
    user_name,
    password,
    role: 'full access',
    first_name: 'Bench',
    last_name: 'Admin',
  });
  return { user_name, password, totpSecret: created.totpSecret };
}

/** Signs in through POST /login with a fresh TOTP code; the session cookie outlives server restarts. */
export async function signIn(baseUrl: string, admin: BenchAdmin): Promise<string> {
  const response = await fetch(`${baseUrl}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      user_name: admin.user_name,
      password: admin.password,
      mfa_token: totpCode(admin.user_name, admin.totpSecret),
    }),
  });
  if (response.status !== 200) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .join('; ');
  if (!cookie) throw new Error('sign-in set no cookie');
  return cookie;
}

/** Fetches a URL and fails unless the answer is 200; the body is read whole, as a client would. */
export async function getOk(url: string, cookie?: string): Promise<unknown> {
  const response = await fetch(url, { headers: cookie ? { cookie } : {} });
  const body = await response.text();
  if (response.status !== 200) throw new Error(`GET ${url}: ${response.status} ${body.slice(0, 300)}`);
  return JSON.parse(body) as unknown;
}

export interface Timing {
  median: number;
  p99: number;
  samples: number[];
}

/**
 * Requests made before a measured run of sequential calls: a server in service has run its hot
 * calls many times, so its code is compiled and its caches are warm. Measured from cold, tablet
 * call 1's first 109 calls cost the server 2.57 ms of CPU each; warmed up, 1.82 ms (2026-11-27).
 */
export const WARM_UP_REQUESTS = 300;

export async function warmUp(call: () => Promise<unknown>, times = WARM_UP_REQUESTS): Promise<void> {
  for (let i = 0; i < times; i += 1) await call();
}

/** Runs `call` sequentially (one client), after a few unmeasured warm-up calls; times in ms. */
export async function timeSequential(
  times: number,
  call: (i: number) => Promise<unknown>,
  warmUp = 5,
): Promise<Timing> {
  for (let i = 0; i < warmUp; i += 1) await call(i);
  const samples: number[] = [];
  for (let i = 0; i < times; i += 1) {
    const started = performance.now();
    await call(i);
    samples.push(performance.now() - started);
  }
  return { median: median(samples), p99: percentile(samples, 99), samples };
}

/**
 * The median of `rounds` rounds' medians of `perRound` sequential calls: a figure that one slow
 * round does not move. `warmUp`: unmeasured calls before the first round's and each later round's.
 */
export async function medianOfRounds(
  rounds: number,
  perRound: number,
  call: () => Promise<unknown>,
  warmUp: { first: number; later: number },
): Promise<number> {
  const medians: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    medians.push((await timeSequential(perRound, call, round === 0 ? warmUp.first : warmUp.later)).median);
  }
  return median(medians);
}

export interface LoadResult {
  /** Requests answered in the run. */
  requests: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
}

/** A closed-loop load of `connections` clients for `seconds` with autocannon; any non-200 fails it. */
export async function load(
  url: string,
  options: { cookie?: string; connections: number; seconds: number; paths?: string[]; warmUp?: boolean },
): Promise<LoadResult> {
  let next = 0;
  const result = await autocannon({
    url,
    connections: options.connections,
    duration: options.seconds,
    headers: options.cookie ? { cookie: options.cookie } : {},
    requests: options.paths
      ? [
          {
            setupRequest: (request) => ({
              ...request,
              path: options.paths![next++ % options.paths!.length]!,
            }),
          },
        ]
      : undefined,
  });
  if (result.requests.total === 0 && !options.warmUp)
    throw new Error(`load on ${url}: no request finished within ${options.seconds} s`);
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(
      `load on ${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
  return {
    requests: result.requests.total,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
  };
}
