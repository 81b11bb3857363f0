import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addDays,
  messages,
  type AssessmentEntry,
  type AssessmentSchedule,
  type Measure,
  type ParticipantOutcomes,
} from '@pathway/contract';
import { assessmentResults, auditEvents, participants } from '../../db/schema.js';
import { rowsOf } from '../../db/rows.js';
import { programmeToday } from '../../lib/programme-day.js';
import { createTestApp, signedInCookie, type TestApp } from '../../../test/harness.js';
import { makeParticipant, makeProgress, makeVideoSet } from '../../../test/programme-factories.js';

const m = messages.outcomes;
let t: TestApp;
let full: string;
let basic: string;
let today: string;

beforeAll(async () => {
  t = await createTestApp();
  full = (await signedInCookie(t.ctx, 'full access')).cookie;
  basic = (await signedInCookie(t.ctx, 'basic access')).cookie;
  today = programmeToday(t.ctx);
});
afterAll(async () => {
  await t.close();
});

async function api(method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: object, cookie = full) {
  return t.app.inject({ method, url, headers: { cookie }, ...(payload !== undefined && { payload }) });
}

/** How many rows each table an outcome call may write holds: a refusal changes none of them. */
async function tally() {
  const [row] = rowsOf<{ results: number; measures: number; schedules: number; audit: number }>(
    await t.ctx.database.db.execute(sql`select
      (select count(*) from assessment_results)::int as results,
      (select count(*) from outcome_measures)::int as measures,
      (select count(*) from assessment_schedules)::int as schedules,
      (select count(*) from audit_events)::int as audit`),
  );
  return row!;
}

async function refused(
  status: number,
  message: string,
  call: () => Promise<{ statusCode: number; json: <T>() => T }>,
) {
  const before = await tally();
  const res = await call();
  expect(res.statusCode).toBe(status);
  expect(res.json<{ message: string }>().message).toBe(message);
  expect(await tally()).toEqual(before);
}

async function measures(): Promise<Measure[]> {
  const res = await api('GET', '/api/measures', undefined, basic);
  expect(res.statusCode).toBe(200);
  return res.json<Measure[]>();
}

/** A participant registered today on a programme of `weeks` weeks that started on `started`. */
async function enrolled(weeks = 12, started = today) {
  const set = await makeVideoSet(t.ctx.database.db, { weeks, perWeek: 3 });
  const p = await makeParticipant(t.ctx.database.db);
  await makeProgress(t.ctx.database.db, p.participant_id, set.fitness_video_set_id, {
    started_date: started,
  });
  return { id: p.participant_id, set };
}

async function record(id: number, body: object, cookie = full) {
  return api('POST', `/api/participant/${id}/assessments`, body, cookie);
}

const GAD7_ALL = (value: number) =>
  Object.fromEntries(['1', '2', '3', '4', '5', '6', '7'].map((i) => [i, value]));

describe('the catalogue of measures', () => {
  it('ships the walking measures of a PAD programme and GAD-7, with their MCIDs and sources', async () => {
    const list = await measures();
    const byCode = new Map(list.map((x) => [x.code, x]));
    expect(byCode.get('6MWD')).toMatchObject({
      kind: 'numeric',
      unit: 'm',
      mcid: 20,
      higher_is_better: true,
      loinc: '64098-7',
    });
    expect(byCode.get('PFWD')).toMatchObject({ kind: 'numeric', unit: 'm', mcid: null });
    expect(byCode.get('MWD')).toMatchObject({ kind: 'numeric', unit: 'm', mcid: 305 });
    const gad7 = byCode.get('GAD-7')!;
    expect(gad7).toMatchObject({
      kind: 'questionnaire',
      unit: '{score}',
      min: 0,
      max: 21,
      mcid: 4,
      scoring: 'sum',
    });
    expect(gad7.items).toHaveLength(7);
    expect(gad7.licence).toContain('No permission is required');
    for (const measure of list) if (measure.mcid !== null) expect(measure.mcid_source).toBeTruthy();
    // No questionnaire asking about self-harm is shipped (HAZ-55): its answer needs a same-day response.
    expect(list.map((x) => x.code)).toEqual(['6MWD', 'PFWD', 'MWD', 'GAD-7']);
    expect(JSON.stringify(list)).not.toMatch(/better off dead|hurting yourself|self-harm/i);
  });

  it('adds a numeric measure and a questionnaire; refuses a taken code, a range upside down, a wrong score range', async () => {
    const res = await api('POST', '/api/measures', {
      code: 'GRIP',
      name: 'Grip strength',
      kind: 'numeric',
      unit: 'kg',
      min: 5,
      max: 80,
      decimals: 1,
      higher_is_better: true,
      mcid: 6.5,
      mcid_source: 'Bohannon 2019',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json<Measure>()).toMatchObject({ code: 'GRIP', has_results: false, retired: false });
    const [audit] = await t.ctx.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'measure.create'));
    expect(audit?.detail).toBe('GRIP (numeric)');

    await refused(409, m.codeTaken('grip'), () =>
      api('POST', '/api/measures', {
        code: 'grip',
        name: 'x',
        kind: 'numeric',
        unit: 'kg',
        min: 1,
        max: 2,
        higher_is_better: true,
      }),
    );
    await refused(400, m.rangeInvalid, () =>
      api('POST', '/api/measures', {
        code: 'BACKWARDS',
        name: 'x',
        kind: 'numeric',
        unit: 'm',
        min: 10,
        max: 1,
        higher_is_better: true,
      }),
    );
    await refused(400, m.unitRequired, () =>
      api('POST', '/api/measures', {
        code: 'NOUNIT',
        name: 'x',
        kind: 'numeric',
        min: 1,
        max: 10,
        higher_is_better: true,
      }),
    );
    const items = [
      {
        item_id: 'a',
        text: 'A',
        answers: [
          { value: 0, label: 'no' },
          { value: 3, label: 'yes' },
        ],
      },
      {
        item_id: 'b',
        text: 'B',
        reversed: true,
        answers: [
          { value: 0, label: 'no' },
          { value: 3, label: 'yes' },
        ],
      },
    ];
    await refused(400, m.scoreRange(0, 6), () =>
      api('POST', '/api/measures', {
        code: 'Q2',
        name: 'Q',
        kind: 'questionnaire',
        scoring: 'sum',
        min: 0,
        max: 5,
        higher_is_better: false,
        items,
      }),
    );
    await refused(400, m.itemIdRepeated('a'), () =>
      api('POST', '/api/measures', {
        code: 'Q3',
        name: 'Q',
        kind: 'questionnaire',
        scoring: 'sum',
        min: 0,
        max: 6,
        higher_is_better: false,
        items: [items[0], { ...items[1], item_id: 'a' }],
      }),
    );
    await refused(403, messages.session.forbidden, () =>
      api(
        'POST',
        '/api/measures',
        { code: 'BASIC', name: 'x', kind: 'numeric', unit: 'm', min: 1, max: 2, higher_is_better: true },
        basic,
      ),
    );
  });

  it('changes anything until a result exists, then only the name and retired (409 for the rest)', async () => {
    const created = (
      await api('POST', '/api/measures', {
        code: 'STS',
        name: 'Sit to stand',
        kind: 'numeric',
        unit: '/min',
        min: 0,
        max: 60,
        higher_is_better: true,
        mcid: 2,
      })
    ).json<Measure>();
    const changed = await api('PATCH', `/api/measures/${created.measure_id}`, { max: 50, mcid: 3 });
    expect(changed.statusCode).toBe(200);
    expect(changed.json<Measure>()).toMatchObject({ max: 50, mcid: 3 });
    await refused(400, m.mcidInvalid, () =>
      api('PATCH', `/api/measures/${created.measure_id}`, { mcid: 51 }),
    );

    const p = await enrolled();
    expect(
      (await record(p.id, { timepoint: 'baseline', measure: 'STS', taken_on: today, value: 12 })).statusCode,
    ).toBe(201);
    await refused(409, m.hasResults, () => api('PATCH', `/api/measures/${created.measure_id}`, { max: 60 }));
    await refused(409, m.hasResults, () =>
      api('PATCH', `/api/measures/${created.measure_id}`, { name: 'x', unit: 'm' }),
    );
    const renamed = await api('PATCH', `/api/measures/${created.measure_id}`, {
      name: '30-second sit to stand',
      retired: true,
    });
    expect(renamed.json<Measure>()).toMatchObject({
      name: '30-second sit to stand',
      retired: true,
      has_results: true,
      max: 50,
    });
    await refused(404, m.measureNotFound, () => api('PATCH', '/api/measures/999999', { name: 'x' }));
    await refused(403, messages.session.forbidden, () =>
      api('PATCH', `/api/measures/${created.measure_id}`, { name: 'y' }, basic),
    );
  });
});

describe('the schedule of a video set', () => {
  it('round-trips, in timepoint order, and refuses an unknown or retired measure and a week past the programme', async () => {
    const set = await makeVideoSet(t.ctx.database.db, { weeks: 12 });
    const url = `/api/videoset/${set.fitness_video_set_id}/assessments`;
    expect((await api('GET', url, undefined, basic)).json<AssessmentSchedule>()).toEqual({ timepoints: [] });
    const body: AssessmentSchedule = {
      timepoints: [
        { timepoint: 'end', measures: ['6MWD', 'GAD-7'] },
        { timepoint: 'interim', week: 6, measures: ['6mwd'] },
        { timepoint: 'baseline', measures: ['6MWD', 'GAD-7', 'MWD'] },
      ],
    };
    const saved = await api('PUT', url, body);
    expect(saved.statusCode).toBe(200);
    const expected = {
      timepoints: [
        { timepoint: 'baseline', measures: ['6MWD', 'GAD-7', 'MWD'] },
        { timepoint: 'interim', week: 6, measures: ['6MWD'] },
        { timepoint: 'end', measures: ['6MWD', 'GAD-7'] },
      ],
    };
    expect(saved.json()).toEqual(expected);
    expect((await api('GET', url, undefined, basic)).json()).toEqual(expected);

    await refused(400, m.unknownMeasure('NOPE'), () =>
      api('PUT', url, { timepoints: [{ timepoint: 'baseline', measures: ['NOPE'] }] }),
    );
    await refused(400, m.weekOutOfRange(12), () =>
      api('PUT', url, { timepoints: [{ timepoint: 'interim', week: 13, measures: ['6MWD'] }] }),
    );
    await refused(400, m.weekRequired, () =>
      api('PUT', url, { timepoints: [{ timepoint: 'interim', measures: ['6MWD'] }] }),
    );
    await refused(400, m.timepointRepeated, () =>
      api('PUT', url, {
        timepoints: [
          { timepoint: 'end', measures: ['6MWD'] },
          { timepoint: 'end', measures: ['MWD'] },
        ],
      }),
    );
    await refused(400, m.timepointInvalid, () =>
      api('PUT', url, { timepoints: [{ timepoint: 'halfway', measures: ['6MWD'] }] }),
    );
    await refused(403, messages.session.forbidden, () => api('PUT', url, { timepoints: [] }, basic));
    await refused(404, messages.videoSet.notFound, () =>
      api('PUT', '/api/videoset/999999/assessments', { timepoints: [] }),
    );
    const retired = (
      await api('POST', '/api/measures', {
        code: 'OLD',
        name: 'Old',
        kind: 'numeric',
        unit: 'm',
        min: 0,
        max: 10,
        higher_is_better: true,
      })
    ).json<Measure>();
    await api('PATCH', `/api/measures/${retired.measure_id}`, { retired: true });
    await refused(400, m.measureRetired('OLD'), () =>
      api('PUT', url, { timepoints: [{ timepoint: 'baseline', measures: ['OLD'] }] }),
    );
    expect((await api('GET', url)).json()).toEqual(expected);
  });
});

describe('recording a result', () => {
  it('records a numeric value as its score, audited in the same transaction, the note for full access only', async () => {
    const p = await enrolled();
    const res = await record(
      p.id,
      { timepoint: 'baseline', measure: '6MWD', taken_on: today, value: 312, note: 'Used a stick' },
      basic,
    );
    expect(res.statusCode).toBe(201);
    const entry = res.json<AssessmentEntry>();
    expect(entry).toMatchObject({
      measure: '6MWD',
      score: 312,
      value: 312,
      unit: 'm',
      has_note: true,
      amends: null,
    });
    expect(entry).not.toHaveProperty('note');
    const [audit] = await t.ctx.database.db
      .select()
      .from(auditEvents)
      .where(sql`${auditEvents.action} = 'assessment.create' and ${auditEvents.participant_id} = ${p.id}`);
    expect(audit?.detail).toBe(`6MWD, baseline, taken ${today}, note`);
    expect(audit?.detail).not.toContain('312');
    const asFull = (await api('GET', `/api/participant/${p.id}/assessments`)).json<AssessmentEntry[]>();
    expect(asFull[0]?.note).toBe('Used a stick');
    const asBasic = (await api('GET', `/api/participant/${p.id}/assessments`, undefined, basic)).json<
      AssessmentEntry[]
    >();
    expect(asBasic[0]).not.toHaveProperty('note');
    expect(JSON.stringify(asBasic)).not.toContain('Used a stick');
  });

  it('scores GAD-7 by its sum (hand-worked: 2+1+3+0+1+2+0 = 9)', async () => {
    const p = await enrolled();
    const res = await record(p.id, {
      timepoint: 'baseline',
      measure: 'GAD-7',
      taken_on: today,
      answers: { '1': 2, '2': 1, '3': 3, '4': 0, '5': 1, '6': 2, '7': 0 },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json<AssessmentEntry>()).toMatchObject({ score: 9, value: null, unit: '{score}' });
  });

  it('scores a mean with a reversed item, and a sum with one, against hand-worked answers', async () => {
    const likert = [1, 2, 3, 4, 5].map((value) => ({ value, label: `${value}` }));
    expect(
      (
        await api('POST', '/api/measures', {
          code: 'MEANQ',
          name: 'Mean questionnaire',
          kind: 'questionnaire',
          scoring: 'mean',
          decimals: 2,
          min: 1,
          max: 5,
          higher_is_better: true,
          mcid: 0.5,
          items: [
            { item_id: 'a', text: 'A', answers: likert },
            { item_id: 'b', text: 'B', reversed: true, answers: likert },
            { item_id: 'c', text: 'C', answers: likert },
          ],
        })
      ).statusCode,
    ).toBe(201);
    const zeroToThree = [0, 1, 2, 3].map((value) => ({ value, label: `${value}` }));
    expect(
      (
        await api('POST', '/api/measures', {
          code: 'SUMQ',
          name: 'Sum questionnaire',
          kind: 'questionnaire',
          scoring: 'sum',
          min: 0,
          max: 10,
          higher_is_better: false,
          items: [
            { item_id: 'x', text: 'X', answers: zeroToThree },
            { item_id: 'y', text: 'Y', reversed: true, answers: zeroToThree },
            { item_id: 'z', text: 'Z', answers: [...zeroToThree, { value: 4, label: '4' }] },
          ],
        })
      ).statusCode,
    ).toBe(201);
    const p = await enrolled();
    // a 4, b 2 reversed to 1 + 5 - 2 = 4, c 5: (4 + 4 + 5) / 3 = 4.333..., 4.33 to two places.
    const mean = await record(p.id, {
      timepoint: 'baseline',
      measure: 'MEANQ',
      taken_on: today,
      answers: { a: 4, b: 2, c: 5 },
    });
    expect(mean.json<AssessmentEntry>().score).toBe(4.33);
    // x 3, y 0 reversed to 0 + 3 - 0 = 3, z 1: 7.
    const sum = await record(p.id, {
      timepoint: 'baseline',
      measure: 'SUMQ',
      taken_on: today,
      answers: { x: 3, y: 0, z: 1 },
    });
    expect(sum.json<AssessmentEntry>().score).toBe(7);
  });

  it('refuses every bad result with a clear message and writes nothing', async () => {
    const p = await enrolled(12);
    const base = { timepoint: 'baseline', measure: '6MWD', taken_on: today };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, value: 1001 }, m.valueOutOfRange(10, 1000, 'metres')],
      [{ ...base, value: 5 }, m.valueOutOfRange(10, 1000, 'metres')],
      [{ ...base, value: 312.5 }, m.valueDecimals(0)],
      [{ ...base }, m.valueRequired],
      [{ ...base, value: 300, answers: { '1': 1 } }, m.answersForNumeric],
      [{ ...base, measure: 'NOPE', value: 300 }, m.unknownMeasure('NOPE')],
      [{ ...base, timepoint: 'halfway', value: 300 }, m.timepointInvalid],
      [{ ...base, timepoint: 'interim', value: 300 }, m.weekRequired],
      [{ ...base, timepoint: 'interim', week: 13, value: 300 }, m.weekOutOfRange(12)],
      [{ ...base, taken_on: addDays(today, 1), value: 300 }, m.dateInFuture],
      [{ ...base, taken_on: addDays(today, -1), value: 300 }, m.dateBeforeRegistration],
      [{ ...base, taken_on: '2026-02-30', value: 300 }, m.dateInvalid],
      [{ ...base, measure: 'GAD-7' }, m.answersRequired],
      [{ ...base, measure: 'GAD-7', value: 9 }, m.valueForQuestionnaire],
      [{ ...base, measure: 'GAD-7', answers: { ...GAD7_ALL(1), '7': undefined } }, m.itemUnanswered('7')],
      [{ ...base, measure: 'GAD-7', answers: { ...GAD7_ALL(1), '8': 1 } }, m.itemUnknown('8')],
      [{ ...base, measure: 'GAD-7', answers: { ...GAD7_ALL(1), '3': 4 } }, m.answerInvalid('3')],
      [{ ...base, measure: 'GAD-7', answers: { ...GAD7_ALL(1), '3': 1.5 } }, m.answerInvalid('3')],
      [{ ...base, value: 300, note: 'x'.repeat(2001) }, m.noteTooLong],
    ];
    for (const [body, message] of cases) await refused(400, message, () => record(p.id, body));
    await refused(404, messages.participant.notFound, () => record(999999, { ...base, value: 300 }));

    const retired = (
      await api('POST', '/api/measures', {
        code: 'GONE',
        name: 'Gone',
        kind: 'numeric',
        unit: 'm',
        min: 0,
        max: 10,
        higher_is_better: true,
      })
    ).json<Measure>();
    await api('PATCH', `/api/measures/${retired.measure_id}`, { retired: true });
    await refused(400, m.measureRetired('GONE'), () => record(p.id, { ...base, measure: 'GONE', value: 3 }));
  });

  it('takes results up to 4 weeks after a discharge, then refuses them (409)', async () => {
    const p = await enrolled(1, addDays(today, -60));
    await t.ctx.database.db
      .update(participants)
      .set({ created_at: new Date(`${addDays(today, -70)}T12:00:00Z`) })
      .where(eq(participants.participant_id, p.id));
    const discharge = async (on: string) =>
      t.ctx.database.db
        .update(participants)
        .set({ status: 'completed', discharged_on: on })
        .where(eq(participants.participant_id, p.id));
    await discharge(addDays(today, -28));
    const within = await record(p.id, {
      timepoint: 'end',
      measure: '6MWD',
      taken_on: addDays(today, -27),
      value: 350,
    });
    expect(within.statusCode).toBe(201);
    await discharge(addDays(today, -29));
    await refused(409, m.dischargedTooLongAgo, () =>
      record(p.id, { timepoint: 'end', measure: '6MWD', taken_on: addDays(today, -27), value: 350 }),
    );
    await refused(409, m.dischargedTooLongAgo, () =>
      api(
        'POST',
        `/api/participant/${p.id}/assessments/${within.json<AssessmentEntry>().assessment_id}/amend`,
        {
          value: 351,
          reason: 'Typo',
        },
      ),
    );
  });
});

describe('amendments', () => {
  it('are new entries naming the result they correct; the original stays, and the newest is the value used', async () => {
    const p = await enrolled();
    const first = (
      await record(p.id, { timepoint: 'baseline', measure: '6MWD', taken_on: today, value: 412 })
    ).json<AssessmentEntry>();
    const amendUrl = `/api/participant/${p.id}/assessments/${first.assessment_id}/amend`;
    await refused(400, m.reasonRequired, () => api('POST', amendUrl, { value: 214 }));
    await refused(400, m.reasonRequired, () => api('POST', amendUrl, { value: 214, reason: '   ' }));
    await refused(400, m.amendOneOf, () => api('POST', amendUrl, { reason: 'Typo' }));
    await refused(400, m.amendOneOf, () =>
      api('POST', amendUrl, { value: 214, entered_in_error: true, reason: 'Typo' }),
    );
    await refused(400, m.valueOutOfRange(10, 1000, 'metres'), () =>
      api('POST', amendUrl, { value: 4120, reason: 'Typo' }),
    );
    await refused(404, m.assessmentNotFound, () =>
      api('POST', `/api/participant/${p.id}/assessments/999999/amend`, { value: 214, reason: 'Typo' }),
    );
    const other = await enrolled();
    await refused(404, m.assessmentNotFound, () =>
      api('POST', `/api/participant/${other.id}/assessments/${first.assessment_id}/amend`, {
        value: 214,
        reason: 'Typo',
      }),
    );

    const amended = await api('POST', amendUrl, { value: 214, reason: 'Digits swapped when typed' }, basic);
    expect(amended.statusCode).toBe(201);
    expect(amended.json<AssessmentEntry>()).toMatchObject({
      amends: first.assessment_id,
      score: 214,
      superseded: false,
    });
    expect(amended.json<AssessmentEntry>()).not.toHaveProperty('reason');
    // Amending the amendment corrects the same result: the chain keeps naming the first.
    const again = await api(
      'POST',
      `/api/participant/${p.id}/assessments/${amended.json<AssessmentEntry>().assessment_id}/amend`,
      {
        value: 241,
        reason: 'Checked the paper form',
      },
    );
    expect(again.json<AssessmentEntry>()).toMatchObject({ amends: first.assessment_id, score: 241 });

    const list = (await api('GET', `/api/participant/${p.id}/assessments`)).json<AssessmentEntry[]>();
    expect(list.map((e) => [e.score, e.amends, e.superseded, e.reason ?? null])).toEqual([
      [241, first.assessment_id, false, 'Checked the paper form'],
      [214, first.assessment_id, true, 'Digits swapped when typed'],
      [412, null, true, null],
    ]);
    const outcomes = (
      await api('GET', `/api/participant/${p.id}/outcomes`, undefined, basic)
    ).json<ParticipantOutcomes>();
    expect(outcomes.results.map((r) => [r.measure, r.score, r.amended])).toEqual([['6MWD', 241, true]]);

    // Entered in error: out of every figure, kept in the log; nothing more can amend it.
    const error = await api('POST', amendUrl, {
      entered_in_error: true,
      reason: 'Recorded against the wrong participant',
    });
    expect(error.json<AssessmentEntry>()).toMatchObject({
      entered_in_error: true,
      score: null,
      amends: first.assessment_id,
    });
    expect(
      (await api('GET', `/api/participant/${p.id}/outcomes`)).json<ParticipantOutcomes>().results,
    ).toEqual([]);
    await refused(409, m.alreadyEnteredInError, () => api('POST', amendUrl, { value: 300, reason: 'Oops' }));
    expect((await api('GET', `/api/participant/${p.id}/assessments`)).json<AssessmentEntry[]>()).toHaveLength(
      4,
    );
  });

  it('the database itself refuses to rewrite a result', async () => {
    const p = await enrolled();
    const first = (
      await record(p.id, { timepoint: 'baseline', measure: '6MWD', taken_on: today, value: 300 })
    ).json<AssessmentEntry>();
    await expect(
      t.ctx.database.db
        .update(assessmentResults)
        .set({ score: 500 })
        .where(eq(assessmentResults.assessment_id, first.assessment_id)),
    ).rejects.toThrow();
    const [row] = await t.ctx.database.db
      .select()
      .from(assessmentResults)
      .where(eq(assessmentResults.assessment_id, first.assessment_id));
    expect(row?.score).toBe(300);
  });
});

describe('the Outcomes tab', () => {
  it('compares each result with the baseline taken by the end of the first week, with the MCID', async () => {
    const started = addDays(today, -7 * 12);
    const p = await enrolled(12, started);
    await t.ctx.database.db
      .update(participants)
      .set({ created_at: new Date(`${addDays(today, -90)}T12:00:00Z`) })
      .where(eq(participants.participant_id, p.id));
    await api('PUT', `/api/videoset/${p.set.fitness_video_set_id}/assessments`, {
      timepoints: [
        { timepoint: 'baseline', measures: ['6MWD', 'GAD-7'] },
        { timepoint: 'end', measures: ['6MWD', 'GAD-7'] },
      ],
    });
    await record(p.id, { timepoint: 'baseline', measure: '6MWD', taken_on: addDays(started, 6), value: 300 });
    // Taken after the first week: late, never the baseline (it would overstate the change).
    await record(p.id, { timepoint: 'baseline', measure: '6MWD', taken_on: addDays(started, 7), value: 250 });
    await record(p.id, { timepoint: 'end', measure: '6MWD', taken_on: today, value: 319 });
    await record(p.id, { timepoint: 'end', measure: 'GAD-7', taken_on: today, answers: GAD7_ALL(1) });
    const outcomes = (await api('GET', `/api/participant/${p.id}/outcomes`)).json<ParticipantOutcomes>();
    const end6 = outcomes.results.find((r) => r.measure === '6MWD' && r.timepoint === 'end');
    expect(end6).toMatchObject({ baseline: 300, change: 19, mcid_class: 'unchanged' });
    const late = outcomes.results.find((r) => r.timepoint === 'baseline' && r.score === 250);
    expect(late?.late_baseline).toBe(true);
    expect(outcomes.due).toEqual([
      {
        timepoint: 'baseline',
        week: null,
        measure: '6MWD',
        due_from: addDays(today, -90),
        due_until: addDays(started, 6),
        state: 'recorded',
      },
      {
        timepoint: 'baseline',
        week: null,
        measure: 'GAD-7',
        due_from: addDays(today, -90),
        due_until: addDays(started, 6),
        state: 'missed',
      },
      {
        timepoint: 'end',
        week: null,
        measure: '6MWD',
        due_from: addDays(started, 77),
        due_until: addDays(started, 83 + 28),
        state: 'recorded',
      },
      {
        timepoint: 'end',
        week: null,
        measure: 'GAD-7',
        due_from: addDays(started, 77),
        due_until: addDays(started, 83 + 28),
        state: 'recorded',
      },
    ]);
    await record(p.id, { timepoint: 'end', measure: '6MWD', taken_on: today, value: 320 });
    const better = (await api('GET', `/api/participant/${p.id}/outcomes`)).json<ParticipantOutcomes>();
    expect(better.results[0]).toMatchObject({ score: 320, change: 20, mcid_class: 'improved' });
  });
});

describe('the outcomes report', () => {
  it('counts completeness and the paired change of the completers, against hand-worked figures', async () => {
    const started = addDays(today, -100);
    const dischargedOn = addDays(today, -10);
    const set = await makeVideoSet(t.ctx.database.db, { weeks: 12 });
    const person = async (results: [string, number, number][], status = 'completed') => {
      const p = await makeParticipant(t.ctx.database.db);
      await t.ctx.database.db
        .update(participants)
        .set({ created_at: new Date(`${addDays(started, -10)}T12:00:00Z`) })
        .where(eq(participants.participant_id, p.participant_id));
      await makeProgress(t.ctx.database.db, p.participant_id, set.fitness_video_set_id, {
        started_date: started,
      });
      const ids: number[] = [];
      for (const [timepoint, offset, value] of results) {
        const res = await record(p.participant_id, {
          timepoint,
          measure: '6MWD',
          taken_on: addDays(started, offset),
          value,
        });
        expect(res.statusCode, res.body).toBe(201);
        ids.push(res.json<AssessmentEntry>().assessment_id);
      }
      await t.ctx.database.db
        .update(participants)
        .set({
          status,
          discharged_on: dischargedOn,
          discharge_reason: status === 'withdrawn' ? 'moved_away' : null,
        })
        .where(eq(participants.participant_id, p.participant_id));
      return { id: p.participant_id, ids };
    };
    await person([
      ['baseline', 0, 300],
      ['end', 84, 340],
    ]); // +40: improved
    await person([
      ['baseline', -3, 250],
      ['end', 84, 260],
    ]); // +10: within the MCID
    await person([
      ['baseline', 6, 400],
      ['end', 84, 370],
    ]); // -30: worse
    const d = await person([
      ['baseline', 0, 350],
      ['end', 84, 350],
    ]);
    await api('POST', `/api/participant/${d.id}/assessments/${d.ids[0]}/amend`, {
      value: 330,
      reason: 'Misread',
    }); // +20: improved
    await person([
      ['baseline', 7, 320],
      ['end', 84, 300],
    ]); // baseline late: not a pair
    await person([['baseline', 0, 280]]); // no end
    const g = await person([
      ['baseline', 0, 310],
      ['end', 84, 500],
    ]);
    await api('POST', `/api/participant/${g.id}/assessments/${g.ids[1]}/amend`, {
      entered_in_error: true,
      reason: 'Wrong person',
    });
    await person(
      [
        ['baseline', 0, 200],
        ['end', 84, 400],
      ],
      'withdrawn',
    ); // not a completer

    const url = `/api/reports/outcomes?from=${dischargedOn}&to=${dischargedOn}&measure=6mwd`;
    const res = await api('GET', url, undefined, basic);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      report: 'outcomes',
      period: { from: dischargedOn, to: dischargedOn },
      measure: '6MWD',
      measure_name: 'Six-minute walk distance',
      unit: 'm',
      mcid: 20,
      higher_is_better: true,
      completed: 7,
      with_baseline: 6,
      baseline_late: 1,
      with_end: 5,
      with_both: 4,
      // Pairs' baselines 250, 300, 330, 400; ends 260, 340, 350, 370; changes -30, 10, 20, 40.
      baseline: { median: 315, q1: 287.5, q3: 347.5 },
      end: { median: 345, q1: 320, q3: 355 },
      median_change: 15,
      improved: 2,
      unchanged: 1,
      worse: 1,
    });
    const [audit] = rowsOf<{ detail: string }>(
      await t.ctx.database.db.execute(
        sql`select detail from audit_events where action = 'report.view' order by audit_event_id desc limit 1`,
      ),
    );
    expect(audit?.detail).toBe(`outcomes of 6MWD ${dischargedOn}..${dischargedOn}`);

    await refused(400, m.unknownMeasure('NOPE'), () =>
      api('GET', `/api/reports/outcomes?from=${dischargedOn}&to=${dischargedOn}&measure=NOPE`),
    );
    await refused(400, messages.reports.measureRequired, () =>
      api('GET', `/api/reports/outcomes?from=${dischargedOn}&to=${dischargedOn}`),
    );
    await refused(400, messages.reports.fromAfterTo, () =>
      api('GET', `/api/reports/outcomes?from=${dischargedOn}&to=${addDays(dischargedOn, -1)}&measure=6MWD`),
    );
  });
});
