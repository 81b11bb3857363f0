import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, roundTo, type OutcomesReport } from '@pathway/contract';
import {
  assessmentResults,
  outcomeMeasures,
  participants,
  participationProgress,
  videoSets,
} from '../../db/schema.js';
import { firstSite } from '../../../test/factories.js';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { percentile } from '../../../test/percentile.js';
import { outcomesReportOf } from './outcomes.js';
import type { ReportContext } from './service.js';

/**
 * The outcomes report's SQL against a plain TypeScript reference, over random cohorts: completers,
 * withdrawals and active participants, with or without a programme; baselines before, on and after
 * the last day of the first week; end results before and after the start; several results of a
 * timepoint; amendments (a new value, or entered in error) of any result, amendments of
 * amendments; measures higher or lower better, with decimals, with and without an MCID; and random
 * periods.
 */
const TZ = 'Europe/London';
const TODAY = '2026-03-10';
const day = (n: number) => addDays('2025-09-01', n);

interface MeasureShape {
  id: number;
  code: string;
  decimals: number;
  mcid: number | null;
  higher_is_better: boolean;
}
let t: TestApp;
let measures: MeasureShape[];
beforeAll(async () => {
  t = await createTestApp();
  const shapes = [
    { code: 'PROP-UP', decimals: 0, mcid: 20, higher_is_better: true },
    { code: 'PROP-DOWN', decimals: 1, mcid: 0.5, higher_is_better: false },
    { code: 'PROP-NONE', decimals: 0, mcid: null, higher_is_better: true },
  ];
  measures = [];
  for (const shape of shapes) {
    const [row] = await t.ctx.database.db
      .insert(outcomeMeasures)
      .values({ ...shape, name: shape.code, kind: 'numeric', unit: 'm', min: 0, max: 1000 })
      .returning();
    measures.push({ ...shape, id: row!.measure_id });
  }
});
afterAll(() => t.close());

const result = fc.record({
  timepoint: fc.constantFrom('baseline', 'baseline', 'end', 'end', 'interim'),
  // Most results of one measure, so that most cohorts have pairs to compare.
  measure: fc.constantFrom(0, 0, 0, 1, 2),
  // Days from the programme's start (or from registration without one).
  offset: fc.integer({ min: -10, max: 40 }),
  tenths: fc.integer({ min: 0, max: 6000 }),
});
const amendment = fc.record({
  of: fc.nat(),
  error: fc.boolean(),
  tenths: fc.integer({ min: 0, max: 6000 }),
});

const scenario = fc.record({
  people: fc.array(
    fc.record({
      registered: fc.integer({ min: 0, max: 120 }),
      programme: fc.option(
        fc.record({ after: fc.integer({ min: 0, max: 10 }), weeks: fc.integer({ min: 1, max: 4 }) }),
      ),
      status: fc.constantFrom('completed', 'completed', 'withdrawn', 'active'),
      dischargedAfter: fc.integer({ min: 0, max: 60 }),
      results: fc.array(result, { maxLength: 6 }),
      // A baseline and an end of the first measure, around the edges of their windows.
      pair: fc.option(
        fc.record({
          baseline: fc.integer({ min: -10, max: 8 }),
          end: fc.integer({ min: -3, max: 40 }),
          tenths: fc.tuple(fc.integer({ min: 0, max: 6000 }), fc.integer({ min: 0, max: 6000 })),
        }),
        { freq: 4 },
      ),
      amendments: fc.array(amendment, { maxLength: 3 }),
    }),
    { minLength: 3, maxLength: 16 },
  ),
  measure: fc.constantFrom(0, 0, 0, 1, 2),
  from: fc.integer({ min: 0, max: 100 }),
  length: fc.oneof(fc.integer({ min: 0, max: 10 }), fc.integer({ min: 60, max: 150 })),
});
type Scenario = typeof scenario extends fc.Arbitrary<infer S> ? S : never;

interface StoredRow {
  id: number;
  root: number;
  measure: number;
  timepoint: string;
  taken_on: string;
  score: number | null;
  error: boolean;
}
interface StoredPerson {
  status: string;
  discharged_on: string | null;
  start: string | null;
  rows: StoredRow[];
}

async function store(s: Scenario): Promise<StoredPerson[]> {
  const db = t.ctx.database.db;
  const site = await firstSite(db);
  await db.delete(participants);
  await db.delete(videoSets);
  const people: StoredPerson[] = [];
  for (const person of s.people) {
    const registered = day(person.registered);
    const discharged_on = person.status === 'active' ? null : addDays(registered, person.dischargedAfter);
    const [p] = await db
      .insert(participants)
      .values({
        ...site,
        first_name: 'P',
        last_name: 'Q',
        date_of_birth: '1950-01-01',
        phone_number: '+447700900000',
        address: 'x',
        created_at: new Date(`${registered}T12:00:00Z`),
        status: person.status,
        discharged_on,
      })
      .returning();
    let start: string | null = null;
    if (person.programme) {
      start = addDays(registered, person.programme.after);
      const [set] = await db
        .insert(videoSets)
        .values({
          organisation_id: site.organisation_id,
          set_name: 'S',
          number_of_weeks: person.programme.weeks,
          videos_in_week: 1,
        })
        .returning();
      await db.insert(participationProgress).values({
        participant_id: p!.participant_id,
        fitness_video_set_id: set!.fitness_video_set_id,
        started_date: start,
        last_seen_date: start,
      });
    }
    const rows: StoredRow[] = [];
    const results = [...person.results];
    if (person.pair) {
      results.push({
        timepoint: 'baseline',
        measure: 0,
        offset: person.pair.baseline,
        tenths: person.pair.tenths[0],
      });
      results.push({ timepoint: 'end', measure: 0, offset: person.pair.end, tenths: person.pair.tenths[1] });
    }
    for (const r of results) {
      const measure = measures[r.measure]!;
      const score = roundTo(r.tenths / 10, measure.decimals);
      const [row] = await db
        .insert(assessmentResults)
        .values({
          participant_id: p!.participant_id,
          measure_id: measure.id,
          timepoint: r.timepoint,
          week: r.timepoint === 'interim' ? 1 : null,
          taken_on: addDays(start ?? registered, r.offset),
          value: score,
          score,
          admin_user_name: 'property',
        })
        .returning();
      rows.push({
        id: row!.assessment_id,
        root: row!.assessment_id,
        measure: r.measure,
        timepoint: r.timepoint,
        taken_on: row!.taken_on,
        score,
        error: false,
      });
    }
    for (const a of person.amendments) {
      if (rows.length === 0) break;
      const target = rows[a.of % rows.length]!;
      const measure = measures[target.measure]!;
      const score = a.error ? null : roundTo(a.tenths / 10, measure.decimals);
      const [row] = await db
        .insert(assessmentResults)
        .values({
          participant_id: p!.participant_id,
          measure_id: measure.id,
          timepoint: target.timepoint,
          week: target.timepoint === 'interim' ? 1 : null,
          taken_on: target.taken_on,
          value: score,
          score,
          entered_in_error: a.error,
          amends: target.root,
          reason: 'property',
          admin_user_name: 'property',
        })
        .returning();
      rows.push({ ...target, id: row!.assessment_id, score, error: a.error });
    }
    people.push({ status: person.status, discharged_on, start, rows });
  }
  return people;
}

const quartiles = (values: number[]) => ({
  median: percentile(values, 0.5),
  q1: percentile(values, 0.25),
  q3: percentile(values, 0.75),
});

/** The report as the rules read, person by person. */
function expected(
  people: StoredPerson[],
  from: string,
  to: string,
  m: number,
): Omit<OutcomesReport, 'period'> {
  const measure = measures[m]!;
  const completers = people.filter(
    (p) => p.status === 'completed' && p.discharged_on! >= from && p.discharged_on! <= to,
  );
  let withBaseline = 0;
  let late = 0;
  let withEnd = 0;
  const pairs: { b: number; e: number; change: number }[] = [];
  for (const p of completers) {
    // The newest row of each chain, in error or not.
    const newest = new Map<number, StoredRow>();
    for (const row of p.rows) if ((newest.get(row.root)?.id ?? 0) < row.id) newest.set(row.root, row);
    const current = [...newest.values()].filter((r) => !r.error && r.measure === m);
    const pick = (rows: StoredRow[]) =>
      [...rows].sort((a, b) =>
        a.taken_on === b.taken_on ? b.root - a.root : a.taken_on < b.taken_on ? 1 : -1,
      )[0];
    const deadline = p.start && addDays(p.start, 6);
    const baseline = pick(
      current.filter((r) => r.timepoint === 'baseline' && (!deadline || r.taken_on <= deadline)),
    );
    const end = pick(current.filter((r) => r.timepoint === 'end' && (!p.start || r.taken_on >= p.start)));
    if (baseline) withBaseline += 1;
    else if (deadline && current.some((r) => r.timepoint === 'baseline' && r.taken_on > deadline)) late += 1;
    if (end) withEnd += 1;
    if (baseline && end)
      pairs.push({
        b: baseline.score!,
        e: end.score!,
        change: roundTo(end.score! - baseline.score!, measure.decimals),
      });
  }
  const classes = (test: (better: number, mcid: number) => boolean) =>
    measure.mcid === null
      ? null
      : pairs.filter((x) => test(measure.higher_is_better ? x.change : -x.change, measure.mcid!)).length;
  return {
    report: 'outcomes',
    measure: measure.code,
    measure_name: measure.code,
    unit: 'm',
    mcid: measure.mcid,
    higher_is_better: measure.higher_is_better,
    completed: completers.length,
    with_baseline: withBaseline,
    baseline_late: late,
    with_end: withEnd,
    with_both: pairs.length,
    baseline: quartiles(pairs.map((x) => x.b)),
    end: quartiles(pairs.map((x) => x.e)),
    median_change: percentile(
      pairs.map((x) => x.change),
      0.5,
    ),
    improved: classes((better, mcid) => roundTo(better, 9) >= mcid),
    unchanged: classes((better, mcid) => roundTo(better, 9) > -mcid && roundTo(better, 9) < mcid),
    worse: classes((better, mcid) => roundTo(better, 9) <= -mcid),
  };
}

/** Percentiles are interpolated in floating point on both sides: compared to 9 places. */
const rounded = (a: unknown) =>
  JSON.parse(
    JSON.stringify(a, (_k, v: unknown) => (typeof v === 'number' ? Math.round(v * 1e9) / 1e9 : v)),
  ) as unknown;

describe('the outcomes report in SQL', () => {
  it('answers what the plain TypeScript reference counts, on random cohorts and periods', async () => {
    const c: ReportContext = { db: t.ctx.database.db, timeZone: TZ, today: TODAY };
    let withPairs = 0;
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const people = await store(s);
        const from = day(s.from);
        const to = addDays(from, s.length);
        const { period, ...got } = await outcomesReportOf(c, { from, to }, measures[s.measure]!.code);
        expect(period).toEqual({ from, to });
        expect(rounded(got)).toEqual(rounded(expected(people, from, to, s.measure)));
        if (got.with_both > 0) withPairs += 1;
      }),
      { numRuns: Number(process.env.REPORTS_PROPERTY_RUNS ?? 25) },
    );
    // The cohorts were not all empty of pairs: the statistics were compared, not only the counts.
    expect(withPairs).toBeGreaterThan(0);
  });
});
