import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, type FollowupEntry, type FollowupCounts } from '@pathway/contract';
import { eq } from 'drizzle-orm';
import { adherenceRuns, participantFollowup } from '../../db/schema.js';
import { programmeToday } from '../../lib/programme-day.js';
import { SESSION_COOKIE } from '../../lib/staff-session.js';
import { runAdherenceCheck } from '../adherence/check.js';
import { ManualClock, createTestApp, signedInCookie, type TestApp } from '../../../test/harness.js';
import { makeParticipant, makeProgress, makeVideoSet } from '../../../test/programme-factories.js';

/**
 * The follow-up reason assessment_due at its boundary days, through the real writers: the schedule
 * saved through the API, programmes and discharges, results recorded through the API, and the
 * daily check each morning the clock is moved to (it moves on a stretch of due days that ended).
 * Days are counted from S, the programme's start, which is today when each test begins.
 */
const clock = new ManualClock(new Date());
let t: TestApp;
let admin: number;
let start: string;

beforeAll(async () => {
  t = await createTestApp({ clock });
  admin = (await signedInCookie(t.ctx, 'full access')).admin.admin_user_id;
});
afterAll(async () => {
  await t.close();
});

/** A session started at the clock's time (the clock moves past any session's lifetime). */
async function cookie(): Promise<string> {
  const { token } = await t.ctx.sessions.start(admin, 'full access', '127.0.0.1');
  return `${SESSION_COOKIE}=${token}`;
}

async function api(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
  const res = await t.app.inject({
    method,
    url,
    headers: { cookie: await cookie() },
    ...(payload && { payload }),
  });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
  return res;
}

/** Moves the clock to day S + `days` (noon, London) and runs that morning's daily check. */
async function dayOf(days: number): Promise<string> {
  const day = addDays(start, days);
  clock.set(new Date(`${day}T12:00:00Z`));
  // Another test may have had its morning on this day: this one is the participant's.
  await t.ctx.database.db.delete(adherenceRuns).where(eq(adherenceRuns.run_date, day));
  await runAdherenceCheck(t.ctx, { today: day });
  return day;
}

/** The participant's worklist row when assessment_due is among its reasons (they may have others). */
async function rowOf(id: number): Promise<FollowupEntry | undefined> {
  const res = await api('GET', '/api/followup?perPage=500&reason=assessment_due');
  const row = res.json<{ data: FollowupEntry[] }>().data.find((r) => r.participant_id === id);
  if (row) expect(row.reasons).toContain('assessment_due');
  return row;
}

/** The first day of the participant's current stretch of assessments due (the reason's "since"). */
async function dueSince(id: number): Promise<string | null> {
  const [f] = await t.ctx.database.db
    .select({ on: participantFollowup.assessment_due_on })
    .from(participantFollowup)
    .where(eq(participantFollowup.participant_id, id));
  return f?.on ?? null;
}

async function counts(): Promise<FollowupCounts> {
  return (await api('GET', '/api/followup/counts')).json<FollowupCounts>();
}

/**
 * A participant registered now on a new set of `weeks` weeks with a schedule; the programme starts
 * today, or `startedDaysAgo` days ago.
 */
async function onSchedule(weeks: number, timepoints: object[], startedDaysAgo = 0) {
  clock.set(new Date());
  start = addDays(programmeToday(t.ctx), -startedDaysAgo);
  const set = await makeVideoSet(t.ctx.database.db, { weeks, perWeek: 1 });
  await api('PUT', `/api/videoset/${set.fitness_video_set_id}/assessments`, { timepoints });
  const p = await makeParticipant(t.ctx.database.db);
  await makeProgress(t.ctx.database.db, p.participant_id, set.fitness_video_set_id, { started_date: start });
  return p.participant_id;
}

describe('assessment_due', () => {
  it('baseline: due from registration to the last day of the first week (S + 6), not on S + 7; recording clears it', async () => {
    const id = await onSchedule(4, [{ timepoint: 'baseline', measures: ['6MWD'] }]);
    const other = await onSchedule(4, [{ timepoint: 'baseline', measures: ['6MWD'] }]);
    expect(await rowOf(id)).toBeDefined();
    expect(await dueSince(id)).toBe(start);
    const before = (await counts()).reasons.assessment_due;
    await api('POST', `/api/participant/${other}/assessments`, {
      timepoint: 'baseline',
      measure: '6MWD',
      taken_on: start,
      value: 320,
    });
    expect(await rowOf(other)).toBeUndefined();
    expect((await counts()).reasons.assessment_due).toBe(before - 1);
    await dayOf(6);
    expect(await rowOf(id)).toBeDefined();
    await dayOf(7);
    expect(await rowOf(id)).toBeUndefined();
  });

  it('end: due from the first day of the last week to 4 weeks after its last day, not a day outside', async () => {
    const id = await onSchedule(3, [{ timepoint: 'end', measures: ['6MWD'] }]);
    expect(await rowOf(id)).toBeUndefined();
    await dayOf(13);
    expect(await rowOf(id)).toBeUndefined();
    const first = await dayOf(14);
    expect(await rowOf(id)).toBeDefined();
    expect(await dueSince(id)).toBe(first);
    await dayOf(20 + 28);
    expect(await rowOf(id)).toBeDefined();
    await dayOf(20 + 29);
    expect(await rowOf(id)).toBeUndefined();
  });

  it('end: cleared when an end result taken in the programme is recorded', async () => {
    const id = await onSchedule(3, [{ timepoint: 'end', measures: ['6MWD'] }]);
    const day = await dayOf(15);
    expect(await rowOf(id)).toBeDefined();
    await api('POST', `/api/participant/${id}/assessments`, {
      timepoint: 'end',
      measure: '6MWD',
      taken_on: day,
      value: 350,
    });
    expect(await rowOf(id)).toBeUndefined();
  });

  it('end: a discharge as completed makes it due from the discharge until 4 weeks after it', async () => {
    // Started 10 days ago: the end (week 6) is a month away when they are discharged today.
    const id = await onSchedule(6, [{ timepoint: 'end', measures: ['6MWD'] }], 10);
    const other = await onSchedule(6, [{ timepoint: 'end', measures: ['6MWD'] }], 10);
    const discharged = await dayOf(10);
    expect(await rowOf(id)).toBeUndefined();
    await api('POST', `/api/participant/${id}/discharge`, {
      outcome: 'completed',
      discharged_on: discharged,
    });
    await api('POST', `/api/participant/${other}/discharge`, { outcome: 'withdrawn', reason: 'moved_away' });
    // Discharged, and still listed for this reason alone: the end assessment is still to be taken.
    expect((await rowOf(id))?.reasons).toEqual(['assessment_due']);
    expect(await dueSince(id)).toBe(discharged);
    // A withdrawal ends every window: nothing is due after it.
    expect(await rowOf(other)).toBeUndefined();
    await dayOf(10 + 28);
    expect(await rowOf(id)).toBeDefined();
    await dayOf(10 + 29);
    expect(await rowOf(id)).toBeUndefined();
  });

  it('interim: due from the first day of its week, cleared by that week’s result', async () => {
    const id = await onSchedule(6, [{ timepoint: 'interim', week: 3, measures: ['MWD'] }]);
    await dayOf(13);
    expect(await rowOf(id)).toBeUndefined();
    const day = await dayOf(14);
    expect(await rowOf(id)).toBeDefined();
    expect(await dueSince(id)).toBe(day);
    // Another week's interim is not this one.
    await api('POST', `/api/participant/${id}/assessments`, {
      timepoint: 'interim',
      week: 2,
      measure: 'MWD',
      taken_on: day,
      value: 500,
    });
    expect(await rowOf(id)).toBeDefined();
    await api('POST', `/api/participant/${id}/assessments`, {
      timepoint: 'interim',
      week: 3,
      measure: 'MWD',
      taken_on: day,
      value: 520,
    });
    expect(await rowOf(id)).toBeUndefined();
  });

  it('follows the schedule: a set given a schedule lists its participants, a schedule emptied takes them off', async () => {
    clock.set(new Date());
    start = programmeToday(t.ctx);
    const set = await makeVideoSet(t.ctx.database.db, { weeks: 4, perWeek: 1 });
    const p = await makeParticipant(t.ctx.database.db);
    await makeProgress(t.ctx.database.db, p.participant_id, set.fitness_video_set_id, {
      started_date: start,
    });
    expect(await rowOf(p.participant_id)).toBeUndefined();
    const url = `/api/videoset/${set.fitness_video_set_id}/assessments`;
    await api('PUT', url, { timepoints: [{ timepoint: 'baseline', measures: ['GAD-7'] }] });
    expect(await rowOf(p.participant_id)).toBeDefined();
    await api('PUT', url, { timepoints: [] });
    expect(await rowOf(p.participant_id)).toBeUndefined();
  });
});
