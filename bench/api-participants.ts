import { participantListQuery } from '@pathway/contract';
import { systemClock } from '../apps/server/src/lib/clock.js';
import { AuditService } from '../apps/server/src/modules/audit/service.js';
import { SessionService, sessionSigningKey } from '../apps/server/src/modules/auth/sessions.js';
import { ParticipantService } from '../apps/server/src/modules/participants/service.js';
import { instanceScope, withScope, type Scope } from '../apps/server/src/db/scope.js';
import { scopedDatabase } from '../apps/server/src/db/scoped-database.js';
import { staffScope } from '../apps/server/src/plugins/access.js';
import { benchSecretBox } from './lib/secrets.js';
import {
  participantCursor,
  type ListFilter,
  type ListOrder,
} from '../apps/server/src/modules/participants/repository.js';
import type { ApiEnvironment } from './lib/api-env.js';
import { WARM_UP_REQUESTS, getOk, load, medianOfRounds, warmUp } from './lib/http.js';
import { count, median, ms, perSecond, ratio } from './lib/stats.js';

/** The grid as staff use it most: one adherence state, sorted by surname, 100 a page. */
const FILTERED: { filter: ListFilter; order: ListOrder; query: string } = {
  filter: { state: 'behind', status: 'active', searchIdentifiable: true },
  order: { sort: 'last_name', order: 'asc' },
  query: 'state=behind&sort=last_name&order=asc&perPage=100',
};
const UNFILTERED_QUERY = 'sort=last_name&order=asc&perPage=100';
const PER_PAGE = 100;
/** Issue 14's goals for the grid page under load (10 connections), and its CPU per request. */
const THROUGHPUT_GOAL = { postgres: 600, pglite: 300 };
const CPU_GOAL_MS = 3;

/** Median of the medians of `rounds` rounds of sequential calls. */
function roundsMedian(env: ApiEnvironment, call: () => Promise<unknown>): Promise<number> {
  return medianOfRounds(env.sizes.rounds, env.sizes.requestsPerRound, call, { first: 5, later: 1 });
}

/** The cursor the console holds for `page` (the nextCursor of the page before it). */
async function cursorBefore(env: ApiEnvironment, page: number): Promise<string> {
  const [row] = await env.db.rows<{ participant_id: number; last_name: string }>(
    `select participant_id, last_name from participants order by last_name, participant_id offset $1 limit 1`,
    [(page - 1) * PER_PAGE - 1],
  );
  if (!row) throw new Error(`the bench data has no row before page ${page}`);
  return participantCursor.encode(FILTERED.order, { value: row.last_name, id: row.participant_id });
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

/** One call the server's code made on the driver (pg.Pool or PGlite), to be made again as it was. */
type DriverCall = unknown[];

/**
 * Runs `work` while recording every call it makes on the driver's `query`: the level at which the
 * server's statements leave it, whether Drizzle built them or the hot paths' named statements
 * (session read, grid page) did. Recording at Drizzle's logger missed those two.
 */
async function captureDriverCalls(env: ApiEnvironment, work: () => Promise<unknown>) {
  const handle = env.db.handle!;
  const driver = (handle.pglite ?? handle.pool!) as unknown as {
    query: (...args: unknown[]) => Promise<unknown>;
  };
  const original = driver.query;
  const ownBefore = Object.hasOwn(driver, 'query');
  const calls: DriverCall[] = [];
  driver.query = function (this: unknown, ...args: unknown[]) {
    // A copy of a query object (pg's { name, text, values, rowMode }): the driver keeps its own.
    calls.push(args.map((a) => (a && typeof a === 'object' && !Array.isArray(a) ? { ...a } : a)));
    return original.apply(this, args);
  };
  try {
    await work();
  } finally {
    // Back as it was: the method of the driver's prototype (pg's Pool, PGlite), not a copy of it.
    if (ownBefore) driver.query = original;
    else delete (driver as { query?: unknown }).query;
  }
  return { calls, replay: (call: DriverCall) => original.apply(driver, call) };
}

/**
 * The SQL one request of the filtered page runs, replayed directly on the database: the server's
 * own session read and list service run once on the bench's connection, every statement they sent
 * to the driver is recorded (the session read and the page with its audit record and total, each
 * named as the server names it), and then sent again as the server sends it (through the
 * application's scoped database, in the session read's scope and the admin's: the staff role, the
 * scope and the policies), sequentially, warmed up and timed as the endpoint was. The endpoint's
 * median over this median: what HTTP, routing, validation, serialisation and the server's own
 * JavaScript add to the same SQL. The same statements as the tables' owner (no scope, no
 * policies) say what the scope and the policies add to the SQL itself.
 */
export async function measureGridSqlRatio(
  env: ApiEnvironment,
  participants: number,
  endpointMedian: number,
): Promise<void> {
  const handle = await env.db.open();
  const token = env.cookie.split('=')[1];
  const sessions = new SessionService(handle.db, systemClock, sessionSigningKey(undefined, benchSecretBox()));
  const list = new ParticipantService(handle.db, new AuditService(handle.db), systemClock, 'Europe/London');
  const query = participantListQuery.parse(Object.fromEntries(new URLSearchParams(FILTERED.query)));
  // Once first: the session's last_seen_at touch, written at most once a minute, is not replayed.
  if (!(await sessions.resolve(token))) throw new Error('the benchmark session did not resolve');
  let scope: Scope | undefined;
  const { calls, replay } = await captureDriverCalls(env, async () => {
    const session = await sessions.resolve(token);
    if (!session) throw new Error('the benchmark session did not resolve');
    scope = staffScope(session);
    const page = await list.list(query, {
      adminUserId: session.adminUserId,
      userName: session.userName,
      ip: '127.0.0.1',
      role: session.role,
      organisationId: session.organisationId,
      visibleSiteIds: session.visibleSiteIds,
    });
    if (page.data.length !== Math.min(PER_PAGE, page.pagination.total)) {
      throw new Error(`the captured page has ${page.data.length} rows of ${page.pagination.total}`);
    }
  });
  const scoped = (
    scopedDatabase(handle) as unknown as { $client: { query: (...a: unknown[]) => Promise<unknown> } }
  ).$client;
  const sessionScope = instanceScope('session look-up');
  const asServer = async () => {
    for (const call of calls)
      await withScope(isSessionRead(call) ? sessionScope : scope!, () => scoped.query(...call));
  };
  const asOwner = async () => {
    for (const call of calls) await replay(call);
  };
  // Both warmed up before either is timed: embedded, the bench process's own PostgreSQL gets
  // faster as V8 optimises it, which would favour whichever ran second.
  await warmUp(asOwner);
  await warmUp(asServer);
  const ownerMedian = await roundsMedian(env, asOwner);
  const sqlMedian = await roundsMedian(env, asServer);
  const value = endpointMedian / sqlMedian;
  const replayed = `the ${calls.length} statements the server's session read and list service sent to the driver (${describeCalls(calls)}), replayed sequentially from the bench process${env.storage === 'pglite' ? ' in-process' : ' over loopback'}; after ${WARM_UP_REQUESTS} replays to warm up, medians of ${env.sizes.rounds} rounds of ${env.sizes.requestsPerRound}`;
  env.add({
    figure: `GET /api/participant page of 100 from ${count(participants)}, state + sort: endpoint vs the same SQL alone`,
    value: `${ratio(value)} (${ms(endpointMedian)} vs ${ms(sqlMedian)})`,
    goal: '≤ 1.3x',
    met: value <= 1.3,
    conditions: `${count(participants)} participants; SQL: ${replayed}, each as the server sends it (the staff role and the scope set ahead of it, one round trip)`,
  });
  env.add({
    figure: `GET /api/participant page of 100 from ${count(participants)}, state + sort: the same SQL as the server sends it vs as the tables' owner`,
    value: `${ratio(sqlMedian / ownerMedian)} (${ms(sqlMedian)} vs ${ms(ownerMedian)})`,
    goal: '',
    met: null,
    conditions: `${count(participants)} participants; ${replayed}; as the owner: no role, no scope, no row-level security policies (what the scope and the policies add to the SQL)`,
  });
}

const isSessionRead = (call: DriverCall) => {
  const first = call[0] as string | { text: string };
  return /from\s+sessions\b/i.test(typeof first === 'string' ? first : first.text);
};

/** "session read (named), page + audit record + total (named)": what each replayed call is, for the table. */
function describeCalls(calls: DriverCall[]): string {
  return calls
    .map((call) => {
      const first = call[0] as string | { name?: string; text: string };
      const text = typeof first === 'string' ? first : first.text;
      const named = typeof first === 'object' && first.name ? ' (named)' : '';
      const what = /from\s+sessions\b/i.test(text)
        ? 'session read'
        : /insert into audit_events/i.test(text)
          ? `page + audit record${/\bcounted\b/.test(text) ? ' + total' : ''}`
          : text.replace(/\s+/g, ' ').slice(0, 40);
      return `${what}${named}`;
    })
    .join(', ');
}
