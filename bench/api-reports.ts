import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPORT_NAMES, WITHDRAWAL_REASONS, addDays, type ReportName } from '@pathway/contract';
import { reportOf, type ReportPeriod } from '../apps/server/src/modules/reports/service.js';
import type { ApiEnvironment } from './lib/api-env.js';
import { BENCH_SITE } from './lib/data.js';
import { explainingDatabase } from './lib/explain.js';
import { getOk, timeSequential } from './lib/http.js';
import { repoRoot } from './lib/paths.js';
import { count, median, ms } from './lib/stats.js';

const TODAY = `(now() at time zone 'Europe/London')::date`;

/**
 * What the reports read beyond the bench's participants (bench/lib/data.ts): registrations spread
 * over the last 14 months, 12 referring organisations and 3 programmes, one in 7 completed and one
 * in 11 withdrawn (with a reason), and a year of the daily check's history. Set-based, once.
 */
async function prepareReportData(env: ApiEnvironment): Promise<void> {
  const reasons = `array[${WITHDRAWAL_REASONS.map((r) => `'${r}'`).join(',')}]`;
  await env.db.load([
    `update participants set
       created_at = now() - make_interval(days => ((participant_id * 7919) % 425)::int, secs => (participant_id % 86400)::double precision),
       referring_organisation = 'Organisation ' || (participant_id % 12 + 1),
       programme_referred_to = (array['Pulmonary rehab', 'Cardiac rehab', 'Falls prevention'])[participant_id % 3 + 1],
       status = case when participant_id % 7 = 0 then 'completed' when participant_id % 11 = 0 then 'withdrawn' else 'active' end,
       discharged_on = case when participant_id % 7 = 0 or participant_id % 11 = 0 then ${TODAY} - (participant_id % 90) end,
       discharge_reason = case when participant_id % 7 <> 0 and participant_id % 11 = 0
         then (${reasons})[participant_id % ${WITHDRAWAL_REASONS.length} + 1] end`,
    `insert into adherence_history (day, site_id, on_track, slightly_behind, behind)
     select ${TODAY} - d, ${BENCH_SITE.site_id}, 50000 - d * 10, 25000 + d * 5, 25000 + d * 5 from generate_series(1, 365) d
     on conflict (day, site_id) do nothing`,
  ]);
  await env.db.settle();
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of each statement a report runs, on the bench's own connection, inside
 * the report's own transaction: its settings (JIT off, work_mem) apply to the plans as to the route.
 */
async function explainReport(env: ApiEnvironment, name: ReportName, period: ReportPeriod): Promise<string[]> {
  const handle = await env.db.open();
  const plans: string[] = [];
  // The plans' rows are not a report's: what the service makes of them is thrown away.
  await reportOf(
    { db: explainingDatabase(handle.db, plans), timeZone: 'Europe/London', today: period.to },
    name,
    period,
  ).catch(() => {});
  return plans;
}

/**
 * Each report over the last 12 months (by month) through the real server, sequential requests,
 * with every participant and seen-video row of the run; then the plan of the slowest, written to
 * bench/profiles/<storage>-reports-plan.txt for bench/results.md.
 */
export async function measureReports(
  env: ApiEnvironment,
  participants: number,
  seenVideos: number,
): Promise<void> {
  await prepareReportData(env);
  const { today } = (
    await env.db.rows<{ today: string }>(`select to_char(${TODAY}, 'YYYY-MM-DD') as today`)
  )[0]!;
  const period: ReportPeriod = { from: addDays(today, -364), to: today, by: 'month' };
  const requests = Math.max(3, Math.min(env.sizes.requestsPerRound, 5));
  const goal = env.storage === 'postgres' ? 300 : 2000;
  const times = new Map<ReportName, number>();
  await env.withServer(async (server) => {
    for (const name of REPORT_NAMES) {
      const url = `${server.url}/api/reports/${name}?from=${period.from}&to=${period.to}&by=month`;
      const timing = await timeSequential(requests, () => getOk(url, env.cookie), 1);
      times.set(name, timing.median);
      env.add({
        figure: `GET /api/reports/${name}, 12 months by month`,
        value: `${ms(timing.median)} (max ${ms(Math.max(...timing.samples))})`,
        goal: `≤ ${goal >= 1000 ? `${goal / 1000} s` : `${goal} ms`}`,
        met: timing.median <= goal,
        conditions: `${count(participants)} participants, ${count(seenVideos)} seen-video rows; median of ${requests} sequential requests after 1`,
      });
    }
    const xlsx = `${server.url}/api/reports/export.xlsx?from=${period.from}&to=${period.to}&by=month`;
    const samples: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const started = performance.now();
      const response = await fetch(xlsx, { headers: { cookie: env.cookie } });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`GET ${xlsx}: ${response.status}`);
      samples.push(performance.now() - started);
    }
    env.add({
      figure: 'GET /api/reports/export.xlsx, 12 months by month (all six reports)',
      value: ms(median(samples)),
      goal: '',
      met: null,
      conditions: `${count(participants)} participants, ${count(seenVideos)} seen-video rows; median of 3 sequential requests`,
    });
  });
  const slowest = [...times].sort((a, b) => b[1] - a[1])[0]![0];
  const plans = await explainReport(env, slowest, period);
  const target = path.join(repoRoot, 'bench/profiles', `${env.storage}-reports-plan.txt`);
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, `${slowest}, ${period.from}..${period.to} by month\n\n${plans.join('\n\n')}\n`);
  console.log(`  (plan of ${slowest}: ${path.relative(repoRoot, target)})`);
}
