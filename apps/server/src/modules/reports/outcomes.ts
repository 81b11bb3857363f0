import { sql } from 'drizzle-orm';
import { messages, type OutcomesReport } from '@pathway/contract';
import type { Database } from '../../db/client.js';
import type { AuditActor, AuditService } from '../audit/index.js';
import { column, nullable, rowsReader } from '../../db/rows.js';
import { badRequest } from '../../lib/http-error.js';
import { siteDetail } from '../../lib/site-filter.js';
import type { ReportContext } from './service.js';

export interface OutcomesPeriod {
  from: string;
  to: string;
}

const readMeasure = rowsReader({
  measure_id: column.integer,
  code: column.text,
  name: column.text,
  unit: column.text,
  decimals: column.integer,
  mcid: nullable(column.number),
  higher_is_better: column.boolean,
});
type MeasureRow = ReturnType<typeof readMeasure>[number];

const readFigures = rowsReader({
  completed: column.integer,
  with_baseline: column.integer,
  baseline_late: column.integer,
  with_end: column.integer,
  with_both: column.integer,
  b_median: nullable(column.number),
  b_q1: nullable(column.number),
  b_q3: nullable(column.number),
  e_median: nullable(column.number),
  e_q1: nullable(column.number),
  e_q3: nullable(column.number),
  median_change: nullable(column.number),
  improved: column.integer,
  unchanged: column.integer,
  worse: column.integer,
});
type Figures = ReturnType<typeof readFigures>[number];

/**
 * The outcomes report of one measure, in one statement: the participants discharged as completed
 * in the period (discharged_on is a day of the programme's calendar); each one's current results
 * (the newest row of each result's chain; entries in error left out); their baseline, the newest
 * taken by the end of the first programme week (a later one is counted as late and never used),
 * and their end result, the newest taken on or after the programme started (modules/outcomes'
 * timeline.ts says the same for one participant); the pairs' quartiles (interpolated, as flow's),
 * and each pair's change rounded to the measure's decimals, against the MCID.
 */
async function figuresOf(db: Database, p: OutcomesPeriod, measure: MeasureRow): Promise<Figures> {
  const direction = measure.higher_is_better ? 1 : -1;
  const mcid = measure.mcid ?? 0;
  const [row] = readFigures(
    await db.execute(sql`
      -- Per completer (an index range of participants), their current results of the measure (an
      -- index range of assessment_results each), then one pass per person: no join that could
      -- grow with the product of two estimates.
      with completers as materialized (
        select pa.participant_id,
          (select pr.started_date from fitness_participation_progress pr where pr.participant_id = pa.participant_id) as s
        from participants pa
        where pa.discharged_on between ${p.from}::date and ${p.to}::date and pa.status = 'completed'
      ), usable as materialized (
        select c.participant_id, c.s, r.root, r.timepoint, r.taken_on, r.score
        from completers c
        cross join lateral (
          select distinct on (coalesce(x.amends, x.assessment_id))
            coalesce(x.amends, x.assessment_id) as root, x.timepoint, x.taken_on, x.score, x.entered_in_error
          from assessment_results x
          where x.participant_id = c.participant_id and x.measure_id = ${measure.measure_id}::int
            and x.timepoint in ('baseline', 'end')
          order by coalesce(x.amends, x.assessment_id), x.assessment_id desc
        ) r
        where not r.entered_in_error
      ), people as materialized (
        select participant_id,
          (array_agg(score order by taken_on desc, root desc)
            filter (where timepoint = 'baseline' and (s is null or taken_on <= s + 6)))[1] as baseline,
          bool_or(timepoint = 'baseline' and s is not null and taken_on > s + 6) as late,
          (array_agg(score order by taken_on desc, root desc)
            filter (where timepoint = 'end' and (s is null or taken_on >= s)))[1] as end_score
        from usable
        group by participant_id
      ), pairs as (
        select baseline, end_score,
          round((end_score - baseline)::numeric, ${measure.decimals}::int) * ${direction}::int as better,
          round((end_score - baseline)::numeric, ${measure.decimals}::int)::float8 as change
        from people where baseline is not null and end_score is not null
      )
      select
        (select count(*) from completers)::int as completed,
        (select count(baseline) from people)::int as with_baseline,
        (select count(*) from people where baseline is null and late)::int as baseline_late,
        (select count(end_score) from people)::int as with_end,
        count(*)::int as with_both,
        (percentile_cont(0.5) within group (order by baseline))::float8 as b_median,
        (percentile_cont(0.25) within group (order by baseline))::float8 as b_q1,
        (percentile_cont(0.75) within group (order by baseline))::float8 as b_q3,
        (percentile_cont(0.5) within group (order by end_score))::float8 as e_median,
        (percentile_cont(0.25) within group (order by end_score))::float8 as e_q1,
        (percentile_cont(0.75) within group (order by end_score))::float8 as e_q3,
        (percentile_cont(0.5) within group (order by change))::float8 as median_change,
        count(*) filter (where better >= ${mcid}::numeric)::int as improved,
        count(*) filter (where better > -${mcid}::numeric and better < ${mcid}::numeric)::int as unchanged,
        count(*) filter (where better <= -${mcid}::numeric)::int as worse
      from pairs`),
  );
  return row!;
}

/** The measure by its code (case does not matter); unknown is a 400 that names it. */
async function measureOf(db: Database, code: string): Promise<MeasureRow> {
  const [row] = readMeasure(
    await db.execute(sql`
      select measure_id, code, name, unit, decimals, mcid, higher_is_better from outcome_measures
      where lower(code) = lower(${code})`),
  );
  if (!row) throw badRequest(messages.outcomes.unknownMeasure(code));
  return row;
}

function answerOf(p: OutcomesPeriod, measure: MeasureRow, f: Figures): OutcomesReport {
  const withMcid = measure.mcid !== null;
  return {
    report: 'outcomes',
    period: { from: p.from, to: p.to },
    measure: measure.code,
    measure_name: measure.name,
    unit: measure.unit,
    mcid: measure.mcid,
    higher_is_better: measure.higher_is_better,
    completed: f.completed,
    with_baseline: f.with_baseline,
    baseline_late: f.baseline_late,
    with_end: f.with_end,
    with_both: f.with_both,
    baseline: { median: f.b_median, q1: f.b_q1, q3: f.b_q3 },
    end: { median: f.e_median, q1: f.e_q1, q3: f.e_q3 },
    median_change: f.median_change,
    improved: withMcid ? f.improved : null,
    unchanged: withMcid ? f.unchanged : null,
    worse: withMcid ? f.worse : null,
  };
}

/** Read-only, in one snapshot, without JIT compilation (as every report: see reportOf). */
function readOnly<T>(c: ReportContext, work: (db: Database) => Promise<T>): Promise<T> {
  return c.db.transaction(
    async (tx) => {
      await tx.execute(sql`set local jit = off`);
      await tx.execute(sql`set local work_mem = '64MB'`);
      return work(tx);
    },
    { accessMode: 'read only' },
  );
}

/** `GET /api/reports/outcomes`: one measure. */
export function outcomesReportOf(c: ReportContext, p: OutcomesPeriod, code: string): Promise<OutcomesReport> {
  return readOnly(c, async (db) => {
    const measure = await measureOf(db, code);
    return answerOf(p, measure, await figuresOf(db, p, measure));
  });
}

/** The outcomes report for `actor`, audited as a view of aggregate data. */
export async function viewOutcomesReport(
  c: ReportContext,
  audit: AuditService,
  actor: AuditActor,
  p: OutcomesPeriod,
  code: string,
  siteId?: number,
): Promise<OutcomesReport> {
  const answer = await outcomesReportOf(c, p, code);
  await audit.record(actor, {
    action: 'report.view',
    detail: `outcomes of ${answer.measure} ${p.from}..${p.to}${siteDetail(siteId)}`,
  });
  return answer;
}

/** The workbook's: every measure in use (not retired, or with results), in catalogue order. */
export function outcomesReportsOf(c: ReportContext, p: OutcomesPeriod): Promise<OutcomesReport[]> {
  return readOnly(c, async (db) => {
    const measures = readMeasure(
      await db.execute(sql`
        select measure_id, code, name, unit, decimals, mcid, higher_is_better from outcome_measures m
        where not m.retired or exists (select 1 from assessment_results r where r.measure_id = m.measure_id)
        order by measure_id`),
    );
    const answers: OutcomesReport[] = [];
    for (const measure of measures) answers.push(answerOf(p, measure, await figuresOf(db, p, measure)));
    return answers;
  });
}
