import fc from 'fast-check';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, type ScheduledTimepoint } from '@pathway/contract';
import {
  assessmentResults,
  assessmentSchedules,
  outcomeMeasures,
  participantFollowup,
  participants,
  participationProgress,
  videoSets,
} from '../../db/schema.js';
import { firstSite } from '../../../test/factories.js';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { currentResults, outcomesOf, type MeasureFacts, type ParticipantFacts } from './timeline.js';

/**
 * The database's assessment_due (assessment_due_refresh(), drizzle 0026) against the Outcomes tab's
 * rules in TypeScript (timeline.ts), on random schedules, programmes, discharges and results
 * (amended, entered in error, late), day by day across the programme: the participant is due on a
 * day exactly when one of their scheduled assessments is, by the rules, due and not recorded.
 */
const START = '2026-01-05';
let t: TestApp;
let measures: MeasureFacts[];

beforeAll(async () => {
  t = await createTestApp();
  const rows = await t.ctx.database.db.select().from(outcomeMeasures);
  const [retired] = await t.ctx.database.db
    .insert(outcomeMeasures)
    .values({
      code: 'GONE',
      name: 'Gone',
      kind: 'numeric',
      unit: 'm',
      min: 0,
      max: 100,
      higher_is_better: true,
      retired: true,
    })
    .returning();
  measures = [...rows, retired!]
    .filter((m) => ['6MWD', 'MWD', 'GONE'].includes(m.code))
    .map((m) => ({
      measure_id: m.measure_id,
      code: m.code,
      mcid: m.mcid,
      higher_is_better: m.higher_is_better,
      decimals: m.decimals,
      retired: m.retired,
    }));
});
afterAll(() => t.close());

const scenario = fc.record({
  weeks: fc.integer({ min: 1, max: 6 }),
  timepoints: fc.array(
    fc.record({
      timepoint: fc.constantFrom('baseline', 'interim', 'end'),
      week: fc.integer({ min: 1, max: 6 }),
      measures: fc.subarray([0, 1, 2], { minLength: 1 }),
    }),
    { maxLength: 4 },
  ),
  registeredBefore: fc.integer({ min: 0, max: 10 }),
  discharge: fc.option(
    fc.record({ status: fc.constantFrom('completed', 'withdrawn'), after: fc.integer({ min: 0, max: 50 }) }),
  ),
  results: fc.array(
    fc.record({
      timepoint: fc.constantFrom('baseline', 'interim', 'end'),
      week: fc.integer({ min: 1, max: 6 }),
      measure: fc.nat(2),
      taken: fc.integer({ min: -5, max: 45 }),
      error: fc.boolean(),
    }),
    { maxLength: 4 },
  ),
});

describe('assessment_due in the database', () => {
  it('holds on exactly the days the TypeScript rules say an assessment is due and not recorded', async () => {
    const db = t.ctx.database.db;
    const site = await firstSite(db);
    const days = { due: 0, not: 0 };
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        await db.delete(participants);
        await db.delete(videoSets);
        const [set] = await db
          .insert(videoSets)
          .values({
            organisation_id: site.organisation_id,
            set_name: 'S',
            number_of_weeks: s.weeks,
            videos_in_week: 1,
          })
          .returning();
        const schedule: ScheduledTimepoint[] = [];
        const seen = new Set<string>();
        for (const tp of s.timepoints) {
          const week = tp.timepoint === 'interim' ? Math.min(tp.week, s.weeks) : undefined;
          const key = `${tp.timepoint}:${week ?? ''}`;
          if (seen.has(key)) continue;
          seen.add(key);
          schedule.push({
            timepoint: tp.timepoint,
            ...(week && { week }),
            measures: tp.measures.map((i) => measures[i]!.code),
          });
          await db.insert(assessmentSchedules).values(
            tp.measures.map((i, position) => ({
              fitness_video_set_id: set!.fitness_video_set_id,
              timepoint: tp.timepoint,
              week: week ?? null,
              measure_id: measures[i]!.measure_id,
              position,
            })),
          );
        }
        const registered = addDays(START, -s.registeredBefore);
        const discharged = s.discharge ? addDays(START, s.discharge.after) : null;
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
            status: s.discharge?.status ?? 'active',
            discharged_on: discharged,
          })
          .returning();
        const id = p!.participant_id;
        await db.insert(participationProgress).values({
          participant_id: id,
          fitness_video_set_id: set!.fitness_video_set_id,
          started_date: START,
          last_seen_date: START,
        });
        for (const r of s.results) {
          const measure = measures[r.measure]!;
          const [row] = await db
            .insert(assessmentResults)
            .values({
              participant_id: id,
              measure_id: measure.measure_id,
              timepoint: r.timepoint,
              week: r.timepoint === 'interim' ? r.week : null,
              taken_on: addDays(START, r.taken),
              value: 300,
              score: 300,
              admin_user_name: 'property',
            })
            .returning();
          if (r.error)
            await db.insert(assessmentResults).values({
              participant_id: id,
              measure_id: measure.measure_id,
              timepoint: r.timepoint,
              week: row!.week,
              taken_on: row!.taken_on,
              entered_in_error: true,
              amends: row!.assessment_id,
              reason: 'property',
              admin_user_name: 'property',
            });
        }
        const rows = await db
          .select()
          .from(assessmentResults)
          .where(eq(assessmentResults.participant_id, id));
        const facts: ParticipantFacts = {
          registered_on: registered,
          status: s.discharge?.status ?? 'active',
          discharged_on: discharged,
          programme: { started_date: START, number_of_weeks: s.weeks },
        };
        for (let offset = -s.registeredBefore; offset <= 7 * s.weeks + 60; offset += 1) {
          const today = addDays(START, offset);
          await db.execute(sql`select assessment_due_refresh(array[${id}::int], ${today}::date)`);
          const [f] = await db
            .select()
            .from(participantFollowup)
            .where(eq(participantFollowup.participant_id, id));
          const holds =
            f!.assessment_due_on !== null &&
            f!.assessment_due_on <= today &&
            f!.assessment_due_until! >= today;
          const due = outcomesOf(schedule, measures, currentResults(rows), facts, today).due;
          const expected = due.some((d) => d.state === 'due');
          expect(holds, `day ${offset}: ${JSON.stringify({ schedule, due, f })}`).toBe(expected);
          days[holds ? 'due' : 'not'] += 1;
          if (holds) {
            // The stretch begins no later than the earliest assessment due today.
            const earliest = due
              .filter((d) => d.state === 'due')
              .map((d) => d.due_from)
              .sort()[0]!;
            expect(f!.assessment_due_on! <= earliest).toBe(true);
          }
        }
      }),
      { numRuns: Number(process.env.OUTCOMES_PROPERTY_RUNS ?? 20) },
    );
    // Both answers were compared, not only "nothing due".
    expect(days.due).toBeGreaterThan(0);
    expect(days.not).toBeGreaterThan(0);
  });
});
