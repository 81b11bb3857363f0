import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { Database } from '../apps/server/src/db/client.js';
import * as schema from '../apps/server/src/db/schema.js';
import { systemClock } from '../apps/server/src/lib/clock.js';
import { AuditService } from '../apps/server/src/modules/audit/service.js';
import { SessionService, sessionSigningKey } from '../apps/server/src/modules/auth/sessions.js';
import { benchSecretBox } from './lib/secrets.js';
import {
  ParticipantRepository,
  encodeCursor,
  type ListFilter,
  type ListOrder,
  type ParticipantRow,
} from '../apps/server/src/modules/participants/repository.js';
import type { ApiEnvironment } from './lib/api-env.js';
import { WARM_UP_REQUESTS, getOk, load, timeSequential, warmUp } from './lib/http.js';
import { count, median, ms, perSecond, ratio } from './lib/stats.js';

/** The grid as staff use it most: one adherence state, sorted by surname, 100 a page. */
const FILTERED: { filter: ListFilter; order: ListOrder; query: string } = {
  filter: { state: 'behind', searchIdentifiable: true },
  order: { sort: 'last_name', order: 'asc' },
  query: 'state=behind&sort=last_name&order=asc&perPage=100',
};
const UNFILTERED_QUERY = 'sort=last_name&order=asc&perPage=100';
const PER_PAGE = 100;
/** Issue 14's goals for the grid page under load (10 connections), and its CPU per request. */
const THROUGHPUT_GOAL = { postgres: 600, pglite: 300 };
const CPU_GOAL_MS = 3;

/** Median of the medians of `rounds` rounds of sequential calls. */
async function roundsMedian(env: ApiEnvironment, call: () => Promise<unknown>): Promise<number> {
  const medians: number[] = [];
  for (let round = 0; round < env.sizes.rounds; round += 1) {
    medians.push((await timeSequential(env.sizes.requestsPerRound, call, round === 0 ? 5 : 1)).median);
  }
  return median(medians);
}

/** The cursor the console holds for `page` (the nextCursor of the page before it). */
async function cursorBefore(env: ApiEnvironment, page: number): Promise<string> {
  const [row] = await env.db.rows<{ participant_id: number; last_name: string }>(
    `select participant_id, last_name from participants order by last_name, participant_id offset $1 limit 1`,
    [(page - 1) * PER_PAGE - 1],
  );
  return encodeCursor(FILTERED.order, row as unknown as ParticipantRow);
}

export interface GridTiming {
  firstFiltered: number;
}

/**
 * First page (state filter + sort) and a deep page (90 % of the way, page 900 of 1,000 at 100k)
 * by offset and by the keyset cursor the console sends when paging on, at one size.
 */
export async function measureGrid(env: ApiEnvironment, participants: number): Promise<GridTiming> {
  const pages = Math.ceil(participants / PER_PAGE);
  const deep = Math.max(2, Math.round(pages * 0.9));
  const cursor = await cursorBefore(env, deep);
  // Counted here: an embedded database cannot be opened while the server holds it.
  // An aggregate without GROUP BY returns exactly one row.
  const { n: behindCount } = (
    await env.db.rows<{ n: number }>(
      `select count(*)::int as n from participant_adherence where days_behind > 2`,
    )
  )[0]!;
  return env.withServer(
    async (server, cpu) => {
      const api = `${server.url}/api/participant`;
      const get = (query: string) => () => getOk(`${api}?${query}`, env.cookie);
      // The figures mean nothing if the grid answers the wrong rows: the totals must be the data's.
      const whole = (await getOk(`${api}?${UNFILTERED_QUERY}`, env.cookie)) as {
        pagination: { total: number };
      };
      const behind = (await getOk(`${api}?${FILTERED.query}`, env.cookie)) as {
        data: unknown[];
        pagination: { total: number };
      };
      if (
        whole.pagination.total !== participants ||
        behind.pagination.total !== behindCount ||
        behind.data.length !== Math.min(PER_PAGE, behindCount)
      ) {
        throw new Error(
          `the grid answers totals ${whole.pagination.total}/${behind.pagination.total}, the data has ${participants}/${behindCount}`,
        );
      }
      let calls = 0;
      const counted = get(FILTERED.query);
      await warmUp(counted);
      const firstRun = await cpu.measure(
        () => roundsMedian(env, () => ((calls += 1), counted())),
        () => calls,
      );
      const firstFiltered = firstRun.result;
      const first = await roundsMedian(env, get(UNFILTERED_QUERY));
      const deepOffset = await roundsMedian(env, get(`${UNFILTERED_QUERY}&page=${deep}`));
      const deepCursor = await roundsMedian(env, get(`${UNFILTERED_QUERY}&page=${deep}&after=${cursor}`));
      const size = count(participants);
      const conditions = `${size} participants, full access, after ${WARM_UP_REQUESTS} requests to warm up, median of ${env.sizes.rounds} rounds of ${env.sizes.requestsPerRound} sequential requests`;
      env.add({
        figure: `GET /api/participant first page, state + sort, ${size} participants`,
        value: ms(firstFiltered),
        goal: '',
        met: null,
        conditions,
      });
      env.addCpu(
        `GET /api/participant first page, state + sort, ${size} participants, sequential`,
        firstRun,
        conditions,
        CPU_GOAL_MS,
      );
      env.add({
        figure: `deep page ${deep} of ${pages} by cursor (console paging) vs first page, ${size}`,
        value: `${ratio(deepCursor / first)} (${ms(deepCursor)} vs ${ms(first)})`,
        goal: '≤ 1.3x (same cost)',
        met: deepCursor / first <= 1.3,
        conditions: `${conditions}; sort last_name, no filter`,
      });
      env.add({
        figure: `deep page ${deep} of ${pages} by offset (page jump) vs first page, ${size}`,
        value: `${ratio(deepOffset / first)} (${ms(deepOffset)} vs ${ms(first)})`,
        goal: '≤ 1.3x (same cost)',
        met: deepOffset / first <= 1.3,
        conditions: `${conditions}; sort last_name, no filter`,
      });
      return { firstFiltered };
    },
    `grid-${count(participants)}`,
  );
}

/** Throughput and latency under load of the filtered first page, 100 from the largest size. */
export async function measureGridLoad(env: ApiEnvironment, participants: number): Promise<void> {
  await env.withServer(async (server, cpu) => {
    const url = `${server.url}/api/participant?${FILTERED.query}`;
    await load(url, { cookie: env.cookie, connections: env.sizes.connections, seconds: 2, warmUp: true });
    const measured = await cpu.measure(
      async () => {
        const runs = [];
        for (let round = 0; round < env.sizes.loadRounds; round += 1) {
          runs.push(
            await load(url, {
              cookie: env.cookie,
              connections: env.sizes.connections,
              seconds: env.sizes.loadSeconds,
            }),
          );
        }
        return runs;
      },
      (runs) => runs.reduce((sum, r) => sum + r.requests, 0),
    );
    const runs = measured.result;
    const throughput = median(runs.map((r) => r.requestsPerSecond));
    const p50 = median(runs.map((r) => r.p50));
    const p99 = median(runs.map((r) => r.p99));
    const conditions = `${count(participants)} participants, page of 100, state behind, sort last_name, full access (audited); autocannon ${env.sizes.connections} connections, median of ${env.sizes.loadRounds} runs of ${env.sizes.loadSeconds} s`;
    env.add({
      figure: `GET /api/participant page of 100 from ${count(participants)}, state + sort: throughput`,
      value: perSecond(throughput),
      goal: `≥ ${THROUGHPUT_GOAL[env.storage]} req/s`,
      met: throughput >= THROUGHPUT_GOAL[env.storage],
      conditions,
    });
    env.add({
      figure: `GET /api/participant page of 100 from ${count(participants)}, state + sort: p50 under load`,
      value: ms(p50),
      goal: '',
      met: null,
      conditions,
    });
    env.add({
      figure: `GET /api/participant page of 100 from ${count(participants)}, state + sort: p99 under load`,
      value: ms(p99),
      goal: '< 50 ms',
      met: p99 < 50,
      conditions,
    });
    env.addCpu(
      `GET /api/participant page of 100 from ${count(participants)}, state + sort, under load`,
      measured,
      conditions,
      CPU_GOAL_MS,
    );
  }, 'grid-load');
}

interface CapturedQuery {
  text: string;
  params: unknown[];
}

/** Drizzle over the benchmark's own connection, recording the SQL it sends. */
function capturingDrizzle(env: ApiEnvironment, into: CapturedQuery[]): Database {
  const handle = env.db.handle!;
  const logger = { logQuery: (text: string, params: unknown[]) => into.push({ text, params }) };
  return handle.pglite
    ? drizzlePglite(handle.pglite, { schema, logger })
    : drizzlePg(handle.pool!, { schema, logger });
}

/**
 * The SQL a request of the filtered page runs (session lookup, count and page side by side, the
 * audit record), captured from the server's own code and then replayed directly on the database,
 * sequentially, as many times as the endpoint was timed. The endpoint's median over this median.
 */
export async function measureGridSqlRatio(
  env: ApiEnvironment,
  participants: number,
  endpointMedian: number,
): Promise<void> {
  await env.db.open();
  const session: CapturedQuery[] = [];
  const listing: CapturedQuery[] = [];
  const audit: CapturedQuery[] = [];
  const secret = sessionSigningKey(undefined, benchSecretBox());
  const resolved = await new SessionService(capturingDrizzle(env, session), systemClock, secret).resolve(
    env.cookie.split('=')[1],
  );
  if (!resolved) throw new Error('the benchmark session did not resolve');
  const repo = new ParticipantRepository(capturingDrizzle(env, listing));
  const [, rows] = await Promise.all([
    repo.count(FILTERED.filter),
    repo.page(FILTERED.filter, FILTERED.order, PER_PAGE, 0),
  ]);
  await new AuditService(capturingDrizzle(env, audit)).record(
    { adminUserId: resolved.adminUserId, userName: resolved.userName, ip: '127.0.0.1' },
    {
      action: 'participant.list',
      participantIds: rows.map((r) => r.participant_id),
      detail: 'page 1, 100 rows, state behind, sort last_name asc',
    },
  );
  const run = (q: CapturedQuery) => env.db.rows(q.text, q.params);
  const request = async () => {
    // The session's last_seen_at touch happens once a minute, not per request.
    for (const q of session.filter((s) => /^select/i.test(s.text))) await run(q);
    await Promise.all(listing.map(run));
    for (const q of audit) await run(q);
  };
  const sqlMedian = await roundsMedian(env, request);
  const value = endpointMedian / sqlMedian;
  env.add({
    figure: `GET /api/participant page of 100 from ${count(participants)}, state + sort: endpoint vs the same SQL alone`,
    value: `${ratio(value)} (${ms(endpointMedian)} vs ${ms(sqlMedian)})`,
    goal: '≤ 1.3x',
    met: value <= 1.3,
    conditions: `${count(participants)} participants; SQL: ${session.length + listing.length + audit.length} statements (session, count + page in parallel, audit insert) replayed from the bench process${env.storage === 'pglite' ? ' in-process' : ' over loopback'}; medians of ${env.sizes.rounds} rounds of ${env.sizes.requestsPerRound}`,
  });
}
