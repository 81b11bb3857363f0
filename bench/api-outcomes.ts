import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { addDays } from '@pathway/contract';
import { outcomesReportOf } from '../apps/server/src/modules/reports/outcomes.js';
import type { ApiEnvironment } from './lib/api-env.js';
import { explainingDatabase } from './lib/explain.js';
import { repoRoot } from './lib/paths.js';
import { getOk, medianOfRounds, timeSequential, warmUp } from './lib/http.js';
import { count, ms } from './lib/stats.js';

const TODAY = `(now() at time zone 'Europe/London')::date`;
/** The outcomes report's goal on PostgreSQL (issue: under 300 ms at 100k participants). */
const POSTGRES_GOAL_MS = 300;

/**
 * Outcome results for most of the bench's participants (bench/lib/data.ts): one in 7 completed,
 * discharged in the last 90 days (as the reports' figures have them); a six-minute walk and a
 * GAD-7 at baseline for 9 in 10 (one in 13 of them taken after the first week), an end result for
 * 8 in 10, one result in 50 amended and one in 200 of those entered in error. Set-based, once.
 */
async function prepareOutcomes(env: ApiEnvironment, participants: number): Promise<number> {
  await env.db.load([
    `update participants set status = 'completed', discharged_on = ${TODAY} - (participant_id % 90)
     where participant_id % 7 = 0 and status = 'active'`,
    `insert into assessment_results (participant_id, measure_id, timepoint, taken_on, value, answers, score, admin_user_name, created_at)
     select p.participant_id, m.measure_id, t.timepoint,
       case when t.timepoint = 'baseline'
         then pr.started_date + case when p.participant_id % 13 = 0 then 10 else -(p.participant_id % 5) end
         else coalesce(p.discharged_on, pr.started_date + 60) end,
       case when m.kind = 'numeric' then v.score end,
       case when m.kind = 'questionnaire' then (select jsonb_object_agg(k::text, (v.score::int + k) % 4) from generate_series(1, 7) k) end,
       case when m.kind = 'numeric' then v.score
         else (select sum((v.score::int + k) % 4) from generate_series(1, 7) k) end,
       'bench', now()
     from participants p
     join fitness_participation_progress pr on pr.participant_id = p.participant_id
     cross join outcome_measures m
     cross join (values ('baseline'), ('end')) t(timepoint)
     cross join lateral (select case when t.timepoint = 'baseline' then 200 + (p.participant_id * 37) % 300
       else 200 + (p.participant_id * 37) % 300 + (p.participant_id * 7919) % 121 - 40 end as score) v
     where m.code in ('6MWD', 'GAD-7') and p.participant_id <= ${participants}
       and (case when t.timepoint = 'baseline' then p.participant_id % 10 <> 3 else p.participant_id % 10 not in (3, 7) end)`,
    `insert into assessment_results (participant_id, measure_id, timepoint, taken_on, value, answers, score,
       entered_in_error, amends, reason, admin_user_name, created_at)
     select r.participant_id, r.measure_id, r.timepoint, r.taken_on,
       case when r.assessment_id % 200 = 0 or r.value is null then null else r.value + 5 end,
       case when r.assessment_id % 200 = 0 then null else r.answers end,
       case when r.assessment_id % 200 = 0 then null else r.score + case when r.value is null then 0 else 5 end end,
       r.assessment_id % 200 = 0, r.assessment_id, 'Bench correction', 'bench', now()
     from assessment_results r where r.assessment_id % 50 = 0 and r.amends is null`,
    `analyze assessment_results`,
  ]);
  await env.db.settle();
  const [row] = await env.db.rows<{ n: number }>(`select count(*)::int as n from assessment_results`);
  return row!.n;
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of the report's statements on the bench's own connection, in the
 * report's own transaction (its settings apply), written to bench/profiles for bench/results.md.
 */
async function explainOutcomes(env: ApiEnvironment, from: string, to: string): Promise<void> {
  const handle = await env.db.open();
  const plans: string[] = [];
  // The measure's look-up is answered, so that the report goes on to its statement.
  const db = explainingDatabase(handle.db, plans, {
    runs: (text) => !/with completers/.test(text),
    answer: [{}],
  });
  await outcomesReportOf({ db, timeZone: 'Europe/London', today: to }, { from, to }, '6MWD').catch(() => {});
  const target = path.join(repoRoot, 'bench/profiles', `${env.storage}-outcomes-plan.txt`);
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, `outcomes of 6MWD, ${from}..${to}\n\n${plans.join('\n\n')}\n`);
  console.log(`  (plan of the outcomes report: ${path.relative(repoRoot, target)})`);
}

/**
 * The outcomes report of the six-minute walk over the last 12 months through the real server
 * (sequential requests), and the CPU per request of recording a result (sequential POSTs, each a
 * result of another active participant, audited).
 */
export async function measureOutcomes(env: ApiEnvironment, participants: number): Promise<void> {
  const results = await prepareOutcomes(env, participants);
  const { today } = (
    await env.db.rows<{ today: string }>(`select to_char(${TODAY}, 'YYYY-MM-DD') as today`)
  )[0]!;
  const from = addDays(today, -364);
  const goal = env.storage === 'postgres' ? POSTGRES_GOAL_MS : 2000;
  const active = await env.db.rows<{ id: number }>(
    `select participant_id as id from participants where status = 'active' order by participant_id limit 2000`,
  );
  const size = count(participants);
  await env.withServer(async (server, cpu) => {
    const url = `${server.url}/api/reports/outcomes?from=${from}&to=${today}&measure=6MWD`;
    const answer = (await getOk(url, env.cookie)) as { completed: number; with_both: number };
    const requests = Math.max(3, Math.min(env.sizes.requestsPerRound, 5));
    const timing = await timeSequential(requests, () => getOk(url, env.cookie), 1);
    env.add({
      figure: 'GET /api/reports/outcomes, 12 months, six-minute walk',
      value: `${ms(timing.median)} (max ${ms(Math.max(...timing.samples))})`,
      goal: `≤ ${goal >= 1000 ? `${goal / 1000} s` : `${goal} ms`}`,
      met: timing.median <= goal,
      conditions: `${size} participants, ${count(results)} result rows; ${count(answer.completed)} completers in the period, ${count(answer.with_both)} with both; median of ${requests} sequential requests after 1`,
    });

    let next = 0;
    const record = async () => {
      const id = active[next++ % active.length]!.id;
      const response = await fetch(`${server.url}/api/participant/${id}/assessments`, {
        method: 'POST',
        headers: { cookie: env.cookie, 'content-type': 'application/json' },
        body: JSON.stringify({
          timepoint: 'interim',
          week: 1,
          measure: '6MWD',
          taken_on: today,
          value: 250 + (next % 300),
        }),
      });
      const body = await response.text();
      if (response.status !== 201)
        throw new Error(`POST assessments: ${response.status} ${body.slice(0, 300)}`);
    };
    await warmUp(record, 100);
    let calls = 0;
    const measured = await cpu.measure(
      () =>
        medianOfRounds(env.sizes.rounds, env.sizes.requestsPerRound * 5, () => ((calls += 1), record()), {
          first: 0,
          later: 0,
        }),
      () => calls,
    );
    const conditions = `${size} participants, ${count(results)} result rows; a six-minute walk of another active participant each time, audited in its transaction; ${env.sizes.rounds} rounds of ${env.sizes.requestsPerRound * 5} sequential requests`;
    env.add({
      figure: 'POST /api/participant/{id}/assessments: p50 sequential',
      value: ms(measured.result),
      goal: '',
      met: null,
      conditions,
    });
    env.addCpu('POST /api/participant/{id}/assessments, sequential', measured, conditions);
  }, 'outcomes');
  await explainOutcomes(env, from, today);
}
