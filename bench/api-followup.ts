import type { ApiEnvironment } from './lib/api-env.js';
import type { BenchDatabase } from './lib/database.js';
import { BENCH_SITE } from './lib/data.js';
import { WARM_UP_REQUESTS, getOk, load, medianOfRounds, warmUp } from './lib/http.js';
import { count, median, ms } from './lib/stats.js';

/** Issue 31's goals for the worklist's first page. */
const CPU_GOAL_MS = 5;
const P99_GOAL_MS = 50;
const PGLITE_P50_GOAL_MS = 50;
const QUERY = 'perPage=25';

/**
 * The follow-up worklist at the largest size. The bench's participants were all registered and
 * given their tablets just now, so their tablets are made to look as a real programme's do: one in
 * seven last called a week ago (tablet silent), one in twenty never registered for push messages
 * or had two messages fail (reminders failing), registration spread over the past 200 days (those
 * without a device: not started). The loaded days behind are taken as days gone by without their
 * video, as the daily check would count them for participants who missed that many days in a row
 * (half of everyone behind or slightly behind): that puts most participants on the list, the worst
 * case for its total.
 */
export async function prepareFollowup(db: BenchDatabase): Promise<void> {
  const { FOLD_FOLLOWUP_TALLY_SQL } = await import('../apps/server/src/modules/followup/worklist.js');
  await db.load([
    `update participant_followup f set
       first_missed_on = case when a.days_behind >= 1 then current_date - a.days_behind + 1 end,
       third_missed_on = case when a.days_behind >= 3 then current_date - a.days_behind + 3 end,
       registered_at = date_trunc('milliseconds', now()) - make_interval(days => f.participant_id % 200),
       device_assigned_at = case when f.has_device then date_trunc('milliseconds', now()) - make_interval(days => f.participant_id % 200) end,
       tablet_called_at = case when f.has_device then date_trunc('milliseconds', now())
         - make_interval(days => case when f.participant_id % 7 = 0 then 7 else 0 end, mins => f.participant_id % 600) end,
       push_failures = case when f.participant_id % 20 = 1 then 2 else 0 end
     from participant_adherence a where a.participant_id = f.participant_id`,
    // The load gave each participant's programme its own statement (a tally row each); the daily
    // job folds them, as here, into one row per site, reason and day.
    FOLD_FOLLOWUP_TALLY_SQL,
  ]);
  await db.settle();
}

/**
 * The worklist's first page as EXPLAIN (ANALYZE, BUFFERS) shows it when the server runs it: as
 * pathway_staff in an admin's scope of the bench's site (the policies' conditions are part of the
 * plan: run as the tables' owner, the plan showed none of them), planned as the route plans it
 * (its generic plan, prepared), with its audit record, in a transaction rolled back.
 */
export async function explainFirstPage(env: ApiEnvironment): Promise<string> {
  const { worklistPageSql } = await import('../apps/server/src/modules/followup/worklist.js');
  const { scopeStatement } = await import('../apps/server/src/db/scope.js');
  const { sql, params } = worklistPageSql(
    {
      now: new Date(),
      silentDays: 3,
      today: new Date().toISOString().slice(0, 10),
      timeZone: 'Europe/London',
    },
    {
      limit: 25,
      offset: 0,
      identifiable: true,
      audit: { actor: { adminUserId: null, userName: 'bench.explain', ip: null }, detail: 'page 1' },
    },
  );
  const scope = scopeStatement(
    {
      kind: 'staff',
      organisationId: BENCH_SITE.organisation_id,
      siteIds: [BENCH_SITE.site_id],
      everySite: true,
      systemAdministrator: false,
    },
    'generic',
  );
  // Every value is cast in the statement, so a literal of unknown type takes the parameter's.
  const literal = (v: unknown) =>
    v === null || v === undefined
      ? 'null'
      : `'${(typeof v === 'string' ? v : JSON.stringify(v)).replace(/'/g, "''")}'`;
  const values = params.map(literal).join(', ');
  // Run once before it is explained: the plan shown is the one kept, as after a request's first.
  const statements = [
    'begin',
    scope,
    `prepare bench_worklist_page as ${sql}`,
    `execute bench_worklist_page(${values})`,
  ];
  const explain = `explain (analyze, buffers, costs off) execute bench_worklist_page(${values})`;
  const handle = await env.db.open();
  let rows: Record<string, string>[];
  if (handle.pglite) {
    for (const statement of statements) await handle.pglite.exec(statement);
    try {
      rows = (await handle.pglite.query<Record<string, string>>(explain)).rows;
    } finally {
      await handle.pglite.exec('rollback; deallocate bench_worklist_page');
    }
  } else {
    const client = await handle.pool!.connect();
    try {
      for (const statement of statements) await client.query(statement);
      rows = (await client.query<Record<string, string>>(explain)).rows;
    } finally {
      await client.query('rollback; deallocate bench_worklist_page').catch(() => {});
      client.release();
    }
  }
  return rows.map((r) => Object.values(r)[0]).join('\n');
}

export async function measureFollowup(env: ApiEnvironment, participants: number): Promise<string> {
  await prepareFollowup(env.db);
  const plan = await explainFirstPage(env);
  await env.withServer(async (server, cpu) => {
    const url = `${server.url}/api/followup?${QUERY}`;
    const first = (await getOk(url, env.cookie)) as { data: unknown[]; pagination: { total: number } };
    if (first.data.length !== 25) throw new Error(`the worklist answered ${first.data.length} rows`);
    const size = count(participants);
    let calls = 0;
    const request = () => getOk(url, env.cookie);
    // The warm-up's requests are not the measured run's: only the measured ones are counted.
    await warmUp(request);
    const call = () => ((calls += 1), request());
    const sequential = await cpu.measure(
      () => medianOfRounds(env.sizes.rounds, env.sizes.requestsPerRound, call, { first: 1, later: 1 }),
      () => calls,
    );
    const conditions = `${size} participants, ${first.pagination.total.toLocaleString('en-GB')} on the worklist, first page of 25 with its total, full access (audited)`;
    env.add({
      figure: `GET /api/followup first page, ${size} participants: p50 sequential`,
      value: ms(sequential.result),
      goal: env.storage === 'pglite' ? `< ${PGLITE_P50_GOAL_MS} ms` : '',
      met: env.storage === 'pglite' ? sequential.result < PGLITE_P50_GOAL_MS : null,
      conditions: `${conditions}; median of ${env.sizes.rounds} rounds of ${env.sizes.requestsPerRound} sequential requests`,
    });
    env.addCpu(`GET /api/followup first page, ${size} participants, sequential`, sequential, conditions);
    // The dashboard's follow-up card and the Follow-up page ask for the counts, each every minute.
    const countsUrl = `${server.url}/api/followup/counts`;
    const countsRequest = () => getOk(countsUrl, env.cookie);
    await warmUp(countsRequest);
    // Ten times the page's rounds, as the dashboard's: CPU time is counted in 10 ms ticks.
    const countsPerRound = env.sizes.requestsPerRound * 10;
    let countsCalls = 0;
    const counts = await cpu.measure(
      () =>
        medianOfRounds(env.sizes.rounds, countsPerRound, () => ((countsCalls += 1), countsRequest()), {
          first: 1,
          later: 1,
        }),
      () => countsCalls,
    );
    const countsConditions = `${size} participants, ${first.pagination.total.toLocaleString('en-GB')} on the worklist, the total and each reason's, full access, after ${WARM_UP_REQUESTS} requests to warm up`;
    env.add({
      figure: `GET /api/followup/counts, ${size} participants: p50 sequential`,
      value: ms(counts.result),
      goal: '',
      met: null,
      conditions: `${countsConditions}; median of ${env.sizes.rounds} rounds of ${countsPerRound} sequential requests`,
    });
    env.addCpu(`GET /api/followup/counts, ${size} participants, sequential`, counts, countsConditions);
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
    const p99 = median(measured.result.map((r) => r.p99));
    const loadConditions = `${conditions}; autocannon ${env.sizes.connections} connections, median of ${env.sizes.loadRounds} runs of ${env.sizes.loadSeconds} s`;
    env.add({
      figure: `GET /api/followup first page, ${size} participants: p99 under load`,
      value: ms(p99),
      goal: env.storage === 'postgres' ? `< ${P99_GOAL_MS} ms` : '',
      met: env.storage === 'postgres' ? p99 < P99_GOAL_MS : null,
      conditions: loadConditions,
    });
    env.addCpu(
      `GET /api/followup first page, ${size} participants, under load`,
      measured,
      loadConditions,
      env.storage === 'postgres' ? CPU_GOAL_MS : undefined,
    );
  }, 'followup');
  return plan;
}
