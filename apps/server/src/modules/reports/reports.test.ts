import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  messages,
  outcomesTable,
  reportTables,
  REPORT_NAMES,
  type OutcomesReport,
  type ReportsAnswers,
  type ReportName,
} from '@pathway/contract';
import { adherenceHistory, deviceAssignments, participants, seenVideos } from '../../db/schema.js';
import {
  ManualClock,
  createTestApp,
  signedInCookie,
  type TestApp,
  asInstance,
} from '../../../test/harness.js';
import {
  makeDevice,
  makeParticipant,
  makeProgress,
  makeVideoSet,
  makeVideos,
} from '../../../test/programme-factories.js';
import { runAdherenceCheck } from '../adherence/check.js';
import { recordViews } from '../progress/views.js';

/**
 * The seed every figure below was worked out from by hand (ADHERENCE_CHECK_TZ Europe/London
 * unless said otherwise; London is on GMT from November to March, on BST in July):
 *
 * sets: Strength (2 weeks × 2 videos: A11 A12 A21 A22), Balance (2 weeks × 3: B11 B12 B13 B21 B22 B23)
 *
 * | who | registered (UTC)   | London day | organisation  | programme       | tablet         | set, started  | outcome |
 * | P1  | 2025-12-31 23:30   | 2025-12-31 | North Clinic  | Pulmonary rehab | yes            | A 2026-01-05  | active |
 * | P2  | 2026-01-01 00:30   | 2026-01-01 | North Clinic  | Cardiac rehab   | yes            | A 2026-01-08  | completed 2026-01-22 |
 * | P3  | 2026-01-10 10:00   | 2026-01-10 | (none)        | Pulmonary rehab | no             | none          | withdrawn 2026-01-20, lost_interest |
 * | P4  | 2026-02-02 10:00   | 2026-02-02 | South Surgery | Pulmonary rehab | history only   | B 2026-02-12  | withdrawn 2026-02-14, moved_away |
 * | P5  | 2026-02-03 10:00   | 2026-02-03 | South Surgery | (none)          | no             | A 2026-02-03  | active |
 * | P6  | 2025-06-30 23:30   | 2025-07-01 | North Clinic  | Pulmonary rehab | yes            | B 2025-07-01  | active |
 *
 * views (UTC instants, London days the same in winter): P1 A11 01-05, A12 01-07, A21 01-13,
 * A22 2026-03-01 00:30; P2 A11 01-08, A12 01-09, A21 01-15, A22 01-16; P4 B11 02-12, B12 02-13;
 * P6 B11 2025-07-01, B12 07-02, B13 07-03.
 * adherence history: 2026-01-30 (2, 1, 0), 2026-01-31 (2, 0, 1), 2026-02-10 (1, 1, 1).
 */
interface Seeded {
  setA: number;
  setB: number;
}

async function seed(t: TestApp, clock: ManualClock): Promise<Seeded> {
  const db = t.ctx.database.db;
  const strength = await makeVideoSet(db, { name: 'Strength', weeks: 2, perWeek: 2 });
  const balance = await makeVideoSet(db, { name: 'Balance', weeks: 2, perWeek: 3 });
  const a = await makeVideos(db, strength);
  const b = await makeVideos(db, balance);
  const person = async (p: {
    at: string;
    org: string | null;
    programme: string | null;
    device: boolean;
    status?: 'completed' | 'withdrawn';
    discharged_on?: string;
    reason?: string;
  }) => {
    const device = p.device ? await makeDevice(db) : null;
    const row = await makeParticipant(db, { deviceId: device?.authorized_device_id ?? null });
    await db
      .update(participants)
      .set({
        created_at: new Date(p.at),
        referring_organisation: p.org,
        programme_referred_to: p.programme,
        status: p.status ?? 'active',
        discharged_on: p.discharged_on ?? null,
        discharge_reason: p.reason ?? null,
      })
      .where(sql`${participants.participant_id} = ${row.participant_id}`);
    return row.participant_id;
  };
  const p1 = await person({
    at: '2025-12-31T23:30:00Z',
    org: 'North Clinic',
    programme: 'Pulmonary rehab',
    device: true,
  });
  const p2 = await person({
    at: '2026-01-01T00:30:00Z',
    org: 'North Clinic',
    programme: 'Cardiac rehab',
    device: true,
    status: 'completed',
    discharged_on: '2026-01-22',
  });
  await person({
    at: '2026-01-10T10:00:00Z',
    org: null,
    programme: 'Pulmonary rehab',
    device: false,
    status: 'withdrawn',
    discharged_on: '2026-01-20',
    reason: 'lost_interest',
  });
  const p4 = await person({
    at: '2026-02-02T10:00:00Z',
    org: 'South Surgery',
    programme: 'Pulmonary rehab',
    device: false,
    status: 'withdrawn',
    discharged_on: '2026-02-14',
    reason: 'moved_away',
  });
  // P4 had a tablet, detached at the discharge: "started" reads the device history.
  await db.insert(deviceAssignments).values({
    participant_id: p4,
    device_uuid: 'a1b2c3d4e5f60718',
    device_name: 'Returned tablet',
    assigned_at: new Date('2026-02-10T10:00:00Z'),
    unassigned_at: new Date('2026-02-14T10:00:00Z'),
  });
  const p5 = await person({
    at: '2026-02-03T10:00:00Z',
    org: 'South Surgery',
    programme: '  ',
    device: false,
  });
  const p6 = await person({
    at: '2025-06-30T23:30:00Z',
    org: 'North Clinic',
    programme: 'Pulmonary rehab',
    device: true,
  });
  await makeProgress(db, p1, strength.fitness_video_set_id, { started_date: '2026-01-05' });
  await makeProgress(db, p2, strength.fitness_video_set_id, { started_date: '2026-01-08' });
  await makeProgress(db, p4, balance.fitness_video_set_id, { started_date: '2026-02-12' });
  await makeProgress(db, p5, strength.fitness_video_set_id, { started_date: '2026-02-03' });
  await makeProgress(db, p6, balance.fitness_video_set_id, { started_date: '2025-07-01' });

  const views: [number, number, typeof a, number, string][] = [
    [p1, strength.fitness_video_set_id, a, 0, '2026-01-05T09:00:00Z'],
    [p1, strength.fitness_video_set_id, a, 1, '2026-01-07T09:00:00Z'],
    [p1, strength.fitness_video_set_id, a, 2, '2026-01-13T09:00:00Z'],
    [p1, strength.fitness_video_set_id, a, 3, '2026-03-01T00:30:00Z'],
    [p2, strength.fitness_video_set_id, a, 0, '2026-01-08T10:00:00Z'],
    [p2, strength.fitness_video_set_id, a, 1, '2026-01-09T10:00:00Z'],
    [p2, strength.fitness_video_set_id, a, 2, '2026-01-15T10:00:00Z'],
    [p2, strength.fitness_video_set_id, a, 3, '2026-01-16T10:00:00Z'],
    [p4, balance.fitness_video_set_id, b, 0, '2026-02-12T10:00:00Z'],
    [p4, balance.fitness_video_set_id, b, 1, '2026-02-13T10:00:00Z'],
    [p6, balance.fitness_video_set_id, b, 0, '2025-07-01T10:00:00Z'],
    [p6, balance.fitness_video_set_id, b, 1, '2025-07-02T10:00:00Z'],
    [p6, balance.fitness_video_set_id, b, 2, '2025-07-03T10:00:00Z'],
  ];
  for (const [who, set, list, index, at] of views) {
    clock.set(new Date(at));
    await asInstance(() => recordViews(t.ctx, who, set, [list[index]!.video_id]));
  }
  clock.set(new Date('2026-03-15T12:00:00Z'));
  await db.insert(adherenceHistory).values([
    { day: '2026-01-30', site_id: 1, on_track: 2, slightly_behind: 1, behind: 0 },
    { day: '2026-01-31', site_id: 1, on_track: 2, slightly_behind: 0, behind: 1 },
    { day: '2026-02-10', site_id: 1, on_track: 1, slightly_behind: 1, behind: 1 },
  ]);
  return { setA: strength.fitness_video_set_id, setB: balance.fitness_video_set_id };
}

const clock = new ManualClock(new Date('2026-03-15T12:00:00Z'));
let t: TestApp;
let ids: Seeded;
let cookie: string;

beforeAll(async () => {
  t = await createTestApp({ clock });
  ids = await seed(t, clock);
  // Basic access: every figure is an aggregate, so both roles read them.
  cookie = (await signedInCookie(t.ctx, 'basic access')).cookie;
});
afterAll(() => t.close());

async function report<N extends ReportName>(app: TestApp, name: N, query: string, who = cookie) {
  const res = await app.app.inject({
    method: 'GET',
    url: `/api/reports/${name}?${query}`,
    headers: { cookie: who },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ReportsAnswers[N]>();
}

const DEC_TO_FEB = 'from=2025-12-01&to=2026-02-28&by=month';
const period = (from: string, to: string, by: 'month' | 'week' = 'month') => ({ from, to, by });
const noOne = { referred: 0, by_organisation: [], by_programme: [] };

describe('GET /api/reports/referrals', () => {
  it('counts registrations per month by organisation and programme', async () => {
    expect(await report(t, 'referrals', DEC_TO_FEB)).toEqual({
      report: 'referrals',
      period: period('2025-12-01', '2026-02-28'),
      rows: [
        {
          period: '2025-12',
          starts_on: '2025-12-01',
          referred: 1,
          by_organisation: [{ name: 'North Clinic', count: 1 }],
          by_programme: [{ name: 'Pulmonary rehab', count: 1 }],
        },
        {
          period: '2026-01',
          starts_on: '2026-01-01',
          referred: 2,
          by_organisation: [
            { name: 'North Clinic', count: 1 },
            { name: 'Not recorded', count: 1 },
          ],
          by_programme: [
            { name: 'Cardiac rehab', count: 1 },
            { name: 'Pulmonary rehab', count: 1 },
          ],
        },
        {
          period: '2026-02',
          starts_on: '2026-02-01',
          referred: 2,
          by_organisation: [{ name: 'South Surgery', count: 2 }],
          by_programme: [
            { name: 'Not recorded', count: 1 },
            { name: 'Pulmonary rehab', count: 1 },
          ],
        },
      ],
    });
  });

  it('groups by ISO week across the year end, the first week starting before `from`', async () => {
    const answer = await report(t, 'referrals', 'from=2025-12-31&to=2026-01-11&by=week');
    expect(answer.rows).toEqual([
      {
        period: '2026-W01',
        starts_on: '2025-12-29',
        referred: 2,
        by_organisation: [{ name: 'North Clinic', count: 2 }],
        by_programme: [
          { name: 'Cardiac rehab', count: 1 },
          { name: 'Pulmonary rehab', count: 1 },
        ],
      },
      {
        period: '2026-W02',
        starts_on: '2026-01-05',
        referred: 1,
        by_organisation: [{ name: 'Not recorded', count: 1 }],
        by_programme: [{ name: 'Pulmonary rehab', count: 1 }],
      },
    ]);
  });

  it('answers a row of zeros for every month of an empty period', async () => {
    const answer = await report(t, 'referrals', 'from=2024-01-15&to=2024-02-15');
    expect(answer.rows).toEqual([
      { period: '2024-01', starts_on: '2024-01-01', ...noOne },
      { period: '2024-02', starts_on: '2024-02-01', ...noOne },
    ]);
  });

  it('takes registration days in London time (BST): 23:30 UTC on 30 June is 1 July', async () => {
    const answer = await report(t, 'referrals', 'from=2025-06-01&to=2025-07-31');
    expect(answer.rows.map((r) => [r.period, r.referred])).toEqual([
      ['2025-06', 0],
      ['2025-07', 1],
    ]);
  });
});

describe('GET /api/reports/flow', () => {
  it('follows each registration cohort to its start and outcome', async () => {
    expect(await report(t, 'flow', DEC_TO_FEB)).toEqual({
      report: 'flow',
      period: period('2025-12-01', '2026-02-28'),
      rows: [
        {
          period: '2025-12',
          starts_on: '2025-12-01',
          referred: 1,
          started: 1,
          completed: 0,
          withdrawn: 0,
          active: 1,
          median_days_to_start: 5,
          p90_days_to_start: 5,
        },
        {
          period: '2026-01',
          starts_on: '2026-01-01',
          referred: 2,
          started: 1,
          completed: 1,
          withdrawn: 1,
          active: 0,
          median_days_to_start: 7,
          p90_days_to_start: 7,
        },
        {
          // P5 has a programme but no tablet: not started.
          period: '2026-02',
          starts_on: '2026-02-01',
          referred: 2,
          started: 1,
          completed: 0,
          withdrawn: 1,
          active: 1,
          median_days_to_start: 10,
          p90_days_to_start: 10,
        },
      ],
      withdrawal_reasons: [
        { reason: 'moved_away', count: 1 },
        { reason: 'lost_interest', count: 1 },
      ],
      // Days to start 5, 7, 10: the 90th percentile interpolates 7 + 0.8 × 3.
      days_to_start: { median: 7, p90: 9.4 },
    });
  });

  it('answers zeros and no statistics for an empty period', async () => {
    expect(await report(t, 'flow', 'from=2024-01-01&to=2024-01-31')).toEqual({
      report: 'flow',
      period: period('2024-01-01', '2024-01-31'),
      rows: [
        {
          period: '2024-01',
          starts_on: '2024-01-01',
          referred: 0,
          started: 0,
          completed: 0,
          withdrawn: 0,
          active: 0,
          median_days_to_start: null,
          p90_days_to_start: null,
        },
      ],
      withdrawal_reasons: [],
      days_to_start: { median: null, p90: null },
    });
  });
});

describe('GET /api/reports/adherence', () => {
  it('gives each month the last recorded day within the period, and when the history starts', async () => {
    expect(await report(t, 'adherence', DEC_TO_FEB)).toEqual({
      report: 'adherence',
      period: period('2025-12-01', '2026-02-28'),
      data_from: '2026-01-30',
      rows: [
        {
          period: '2025-12',
          starts_on: '2025-12-01',
          as_of: null,
          on_track: null,
          slightly_behind: null,
          behind: null,
        },
        {
          period: '2026-01',
          starts_on: '2026-01-01',
          as_of: '2026-01-31',
          on_track: 2,
          slightly_behind: 0,
          behind: 1,
        },
        {
          period: '2026-02',
          starts_on: '2026-02-01',
          as_of: '2026-02-10',
          on_track: 1,
          slightly_behind: 1,
          behind: 1,
        },
      ],
    });
  });

  it('stops at the end of a period that cuts a month', async () => {
    const answer = await report(t, 'adherence', 'from=2026-01-01&to=2026-01-30');
    expect(answer.rows).toEqual([
      {
        period: '2026-01',
        starts_on: '2026-01-01',
        as_of: '2026-01-30',
        on_track: 2,
        slightly_behind: 1,
        behind: 0,
      },
    ]);
  });
});

describe('GET /api/reports/programme-weeks', () => {
  it('follows the period’s starters week by week through their programme', async () => {
    expect(await report(t, 'programme-weeks', DEC_TO_FEB)).toEqual({
      report: 'programme-weeks',
      period: period('2025-12-01', '2026-02-28'),
      rows: [
        // P4 (history tablet) saw 2 of 3; P5 has no tablet and P6 started before the period.
        { video_set_id: ids.setB, set_name: 'Balance', week: 1, reached: 1, watched_all: 0, still_active: 1 },
        // P4 withdrew on 14 February, before week 2 began (19 February).
        { video_set_id: ids.setB, set_name: 'Balance', week: 2, reached: 1, watched_all: 0, still_active: 0 },
        {
          video_set_id: ids.setA,
          set_name: 'Strength',
          week: 1,
          reached: 2,
          watched_all: 2,
          still_active: 2,
        },
        // P1 saw A22 on 1 March, after the period; P2 completed on 22 January, after week 2 began.
        {
          video_set_id: ids.setA,
          set_name: 'Strength',
          week: 2,
          reached: 2,
          watched_all: 1,
          still_active: 2,
        },
      ],
    });
  });

  it('counts only the weeks begun and the views made by the end of a period that cuts a programme', async () => {
    const answer = await report(t, 'programme-weeks', 'from=2026-01-01&to=2026-01-12');
    expect(answer.rows).toEqual([
      { video_set_id: ids.setB, set_name: 'Balance', week: 1, reached: 0, watched_all: 0, still_active: 0 },
      { video_set_id: ids.setB, set_name: 'Balance', week: 2, reached: 0, watched_all: 0, still_active: 0 },
      // 12 January: P1's day 8 (week 2 begun, A21 not yet seen), P2's day 5.
      { video_set_id: ids.setA, set_name: 'Strength', week: 1, reached: 2, watched_all: 2, still_active: 2 },
      { video_set_id: ids.setA, set_name: 'Strength', week: 2, reached: 1, watched_all: 0, still_active: 1 },
    ]);
  });

  it('counts a discharge by the day the week began, and views up to today for a period ending later', async () => {
    const answer = await report(t, 'programme-weeks', 'from=2026-01-08&to=2026-12-31');
    expect(answer.rows).toEqual([
      { video_set_id: ids.setB, set_name: 'Balance', week: 1, reached: 1, watched_all: 0, still_active: 1 },
      { video_set_id: ids.setB, set_name: 'Balance', week: 2, reached: 1, watched_all: 0, still_active: 0 },
      // P2 only (P1 started on 5 January): completed on 22 January, after both weeks began (8 and 15).
      { video_set_id: ids.setA, set_name: 'Strength', week: 1, reached: 1, watched_all: 1, still_active: 1 },
      { video_set_id: ids.setA, set_name: 'Strength', week: 2, reached: 1, watched_all: 1, still_active: 1 },
    ]);
  });
});

describe('GET /api/reports/videos', () => {
  it('counts views per video in the period and flags each set’s least watched', async () => {
    const answer = await report(t, 'videos', DEC_TO_FEB);
    expect(answer.rows.map((r) => [r.set_name, r.week, r.day, r.title, r.views, r.least_watched])).toEqual([
      ['Balance', 1, 1, 'Week 1 day 1', 1, false],
      ['Balance', 1, 2, 'Week 1 day 2', 1, false],
      ['Balance', 1, 3, 'Week 1 day 3', 0, true],
      ['Balance', 2, 1, 'Week 2 day 1', 0, true],
      ['Balance', 2, 2, 'Week 2 day 2', 0, true],
      ['Balance', 2, 3, 'Week 2 day 3', 0, true],
      ['Strength', 1, 1, 'Week 1 day 1', 2, false],
      ['Strength', 1, 2, 'Week 1 day 2', 2, false],
      ['Strength', 2, 1, 'Week 2 day 1', 2, false],
      ['Strength', 2, 2, 'Week 2 day 2', 1, true],
    ]);
  });

  it('flags nothing when a set’s videos were watched alike (an empty period)', async () => {
    const answer = await report(t, 'videos', 'from=2024-01-01&to=2024-12-31');
    expect(answer.rows.map((r) => [r.views, r.least_watched])).toEqual(Array(10).fill([0, false]));
  });
});

describe('GET /api/reports/views', () => {
  it('sums views per month, with zeros for months without any', async () => {
    expect(await report(t, 'views', DEC_TO_FEB)).toEqual({
      report: 'views',
      period: period('2025-12-01', '2026-02-28'),
      rows: [
        { period: '2025-12', starts_on: '2025-12-01', views: 0 },
        { period: '2026-01', starts_on: '2026-01-01', views: 7 },
        { period: '2026-02', starts_on: '2026-02-01', views: 2 },
      ],
    });
  });

  it('sums views per ISO week across the year end, within the period only', async () => {
    const answer = await report(t, 'views', 'from=2025-12-31&to=2026-01-08&by=week');
    // 2026-W02 is cut on Thursday 8 January: P1's 5th and 7th, P2's 8th.
    expect(answer.rows).toEqual([
      { period: '2026-W01', starts_on: '2025-12-29', views: 0 },
      { period: '2026-W02', starts_on: '2026-01-05', views: 3 },
    ]);
  });
});

describe('the period and the report name', () => {
  const refused = async (url: string, message: string) => {
    const res = await t.app.inject({ method: 'GET', url, headers: { cookie } });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json<{ message: string }>().message).toBe(message);
  };

  it('refuses an unknown report, a bad or missing date, `from` after `to`, more than 3 years, a bad grouping', async () => {
    await refused(`/api/reports/cohorts?${DEC_TO_FEB}`, messages.reports.unknown);
    await refused('/api/reports/views?from=2026-02-30&to=2026-03-01', messages.reports.badDate('from'));
    await refused('/api/reports/views?from=2026-02-01&to=1%20March', messages.reports.badDate('to'));
    await refused('/api/reports/views?to=2026-03-01', messages.reports.badDate('from'));
    await refused('/api/reports/views?from=2026-03-02&to=2026-03-01', messages.reports.fromAfterTo);
    await refused('/api/reports/views?from=2023-01-01&to=2026-01-01', messages.reports.tooLong);
    await refused('/api/reports/flow?from=2024-02-29&to=2027-03-01', messages.reports.tooLong);
    await refused('/api/reports/views?from=2026-01-01&to=2026-02-01&by=day', messages.reports.badGrouping);
    await refused(`/api/reports/export.xlsx?${DEC_TO_FEB}&suppress_small=yes`, messages.reports.badSuppress);
    await refused('/api/reports/export.xlsx?from=2026-03-02&to=2026-03-01', messages.reports.fromAfterTo);
  });

  it('accepts exactly 3 years, and a leap day plus 3 years ends on the last day of February', async () => {
    await report(t, 'views', 'from=2023-01-01&to=2025-12-31');
    await report(t, 'flow', 'from=2024-02-29&to=2027-02-28');
  });

  it('needs a signed-in admin', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/reports/views?${DEC_TO_FEB}` });
    expect(res.statusCode).toBe(401);
  });

  it('records each view of a report in the audit trail as aggregate data, naming no participant', async () => {
    const { cookie: full, admin } = await signedInCookie(t.ctx, 'full access');
    await report(t, 'flow', 'from=2025-12-01&to=2026-01-31&by=week', full);
    const events = await t.ctx.database.db.execute(
      sql`select action, detail, participant_id, participant_ids from audit_events
          where admin_user_id = ${admin.admin_user_id} order by audit_event_id`,
    );
    expect((events as { rows: unknown[] }).rows).toEqual([
      {
        action: 'report.view',
        detail: 'flow 2025-12-01..2026-01-31 by week',
        participant_id: null,
        participant_ids: null,
      },
    ]);
  });
});

describe('GET /api/reports/export.xlsx', () => {
  async function workbook(query: string) {
    const { cookie: full, admin } = await signedInCookie(t.ctx, 'full access');
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/reports/export.xlsx?${query}`,
      headers: { cookie: full },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="pathway-reports-2025-12-01-to-2026-02-28.xlsx"',
    );
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheets = book.worksheets.map((sheet) => {
      const rows: unknown[][] = [];
      sheet.eachRow({ includeEmpty: true }, (row) => {
        // ExcelJS's row values are 1-based and sparse (a hole is an empty cell).
        rows.push(Array.from((row.values as unknown[]).slice(1), (v) => v ?? null));
      });
      return { name: sheet.name, rows };
    });
    return { sheets, admin };
  }

  /** The cells the workbook must hold: each table's title, its header, then its rows (empty cells trimmed). */
  async function expectedSheets(suppress: boolean) {
    const answers = await Promise.all(REPORT_NAMES.map((name) => report(t, name, DEC_TO_FEB)));
    const trim = (cells: unknown[]) => {
      const out = [...cells];
      while (out.length > 0 && out[out.length - 1] === null) out.pop();
      return out;
    };
    const { cookie } = await signedInCookie(t.ctx, 'basic access');
    const outcomes: OutcomesReport[] = [];
    for (const code of ['6MWD', 'PFWD', 'MWD', 'GAD-7']) {
      const res = await t.app.inject({
        url: `/api/reports/outcomes?from=2025-12-01&to=2026-02-28&measure=${code}`,
        headers: { cookie },
      });
      outcomes.push(res.json<OutcomesReport>());
    }
    return [...answers.flatMap((a) => reportTables(a, suppress)), outcomesTable(outcomes, suppress)].map(
      (table) => ({ name: table.key, rows: [[table.title], table.columns, ...table.rows.map(trim)] }),
    );
  }

  it('holds every table, cell by cell, after a sheet saying the period, when and by whom', async () => {
    const { sheets, admin } = await workbook(DEC_TO_FEB);
    expect(sheets[0]).toEqual({
      name: 'about',
      rows: [
        ['About this workbook'],
        ['Item', 'Value'],
        [
          'Reports',
          'Referrals, Flow, Adherence over time, Where people stop, Videos, Views per day, Outcomes',
        ],
        ['From', '2025-12-01'],
        ['To', '2026-02-28'],
        ['Sites', 'Every site of the admin who made it'],
        ['Grouped by', 'month'],
        ['Time zone', 'Europe/London'],
        ['Made at', '2026-03-15T12:00:00.000Z'],
        ['Made by', admin.user_name],
        ['Small counts', 'Not suppressed: for use within the team only'],
      ],
    });
    expect(sheets.slice(1)).toEqual(await expectedSheets(false));
    // Spot checks written from the seed: January's flow row, and the pivot of organisations.
    const flow = sheets.find((s) => s.name === 'flow')!;
    expect(flow.rows[3]).toEqual(['2026-01', '2026-01-01', 2, 1, 1, 1, 0, 7, 7]);
    const orgs = sheets.find((s) => s.name === 'referrals-by-organisation')!;
    expect(orgs.rows[1]).toEqual([
      'Period',
      'Starts on',
      'Referred',
      'North Clinic',
      'South Surgery',
      'Not recorded',
    ]);
    expect(orgs.rows[4]).toEqual(['2026-02', '2026-02-01', 2, 0, 2, 0]);
    const events = await t.ctx.database.db.execute(
      sql`select action, detail from audit_events where admin_user_id = ${admin.admin_user_id}`,
    );
    expect((events as { rows: unknown[] }).rows).toEqual([
      { action: 'report.export', detail: 'all reports 2025-12-01..2026-02-28 by month, xlsx' },
    ]);
  });

  it('writes counts under 5 as <5, and leaves the statistics of such small groups empty, when asked', async () => {
    const { sheets } = await workbook(`${DEC_TO_FEB}&suppress_small=true`);
    expect(sheets[0]!.rows[10]).toEqual([
      'Small counts',
      'Counts from 1 to 4 are written as <5; shares and statistics of such groups are left empty',
    ]);
    expect(sheets.slice(1)).toEqual(await expectedSheets(true));
    const flow = sheets.find((s) => s.name === 'flow')!;
    expect(flow.rows[3]).toEqual(['2026-01', '2026-01-01', '<5', '<5', '<5', '<5', 0]);
    const views = sheets.find((s) => s.name === 'views')!;
    expect(views.rows.slice(2)).toEqual([
      ['2025-12', '2025-12-01', 0],
      ['2026-01', '2026-01-01', 7],
      ['2026-02', '2026-02-01', '<5'],
    ]);
  });
});

describe('with ADHERENCE_CHECK_TZ America/New_York', () => {
  const nyClock = new ManualClock(new Date('2026-03-15T12:00:00Z'));
  let ny: TestApp;
  let nyCookie: string;
  beforeAll(async () => {
    ny = await createTestApp({ clock: nyClock, env: { ADHERENCE_CHECK_TZ: 'America/New_York' } });
    await seed(ny, nyClock);
    nyCookie = (await signedInCookie(ny.ctx, 'basic access')).cookie;
  });
  afterAll(() => ny.close());

  it('takes registration days in that calendar: 00:30 UTC on 1 January is still 31 December', async () => {
    const referrals = await report(ny, 'referrals', 'from=2025-06-01&to=2026-01-31', nyCookie);
    expect(referrals.rows.map((r) => [r.period, r.referred])).toEqual([
      ['2025-06', 1],
      ['2025-07', 0],
      ['2025-08', 0],
      ['2025-09', 0],
      ['2025-10', 0],
      ['2025-11', 0],
      ['2025-12', 2],
      ['2026-01', 1],
    ]);
    const flow = await report(ny, 'flow', 'from=2025-12-01&to=2025-12-31', nyCookie);
    // P1 and P2 both registered on 31 December: 5 and 8 days to their starts.
    expect(flow.rows[0]).toMatchObject({
      referred: 2,
      started: 2,
      median_days_to_start: 6.5,
      p90_days_to_start: 7.7,
    });
  });
});

describe('the daily check', () => {
  it('records the day’s counts per class for active participants with a programme, once a day', async () => {
    const before = await t.ctx.database.db.select().from(seenVideos);
    expect(before).toHaveLength(13);
    const first = await runAdherenceCheck(t.ctx, { today: '2026-03-15' });
    expect(first.ran).toBe(true);
    await runAdherenceCheck(t.ctx, { today: '2026-03-15' });
    const rows = await t.ctx.database.db
      .select()
      .from(adherenceHistory)
      .where(sql`day = '2026-03-15'`);
    // P1 (all 4 seen) on track; P5 (none of 4 due) and P6 (3 of 6) behind; P2 and P4 are discharged.
    expect(rows).toEqual([{ day: '2026-03-15', site_id: 1, on_track: 1, slightly_behind: 0, behind: 2 }]);
    const answer = await report(t, 'adherence', 'from=2026-03-01&to=2026-03-31');
    expect(answer.rows).toEqual([
      {
        period: '2026-03',
        starts_on: '2026-03-01',
        as_of: '2026-03-15',
        on_track: 1,
        slightly_behind: 0,
        behind: 2,
      },
    ]);
  });
});
