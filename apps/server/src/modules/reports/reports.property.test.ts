import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  NOT_RECORDED_LABEL,
  WITHDRAWAL_REASONS,
  addDays,
  calendarDate,
  type ReportGrouping,
  type ReportsAnswers,
  type WithdrawalReason,
} from '@pathway/contract';
import {
  adherenceHistory,
  authorizedDevices,
  dailyViews,
  deviceAssignments,
  participants,
  participationProgress,
  seenVideos,
  videoSets,
  videos,
} from '../../db/schema.js';
import { firstSite } from '../../../test/factories.js';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { percentile } from '../../../test/percentile.js';
import { reportOf, type ReportContext, type ReportPeriod } from './service.js';

/**
 * Each report's SQL against a plain TypeScript reference, over random programmes: registrations
 * at any hour (so days and months turn over in London time, not UTC), referral fields left empty,
 * tablets now or only in the history, programmes with weeks lacking videos, discharges, views, the
 * daily check's history, and random periods grouped by month or ISO week.
 */
const TZ = 'Europe/London';
const TODAY = '2026-03-10';
const WINDOW_START = Date.UTC(2025, 9, 1); // 1 October 2025
const WINDOW_DAYS = 180;
const ORGS = ['North Clinic', 'south surgery', ' ', 'Ward 7'] as const;
const PROGRAMMES = ['Pulmonary rehab', 'Cardiac rehab', ''] as const;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const instant = fc
  .integer({ min: 0, max: WINDOW_DAYS * 24 * 60 - 1 })
  .map((minutes) => new Date(WINDOW_START + minutes * 60_000));
const day = fc.integer({ min: 0, max: WINDOW_DAYS - 1 }).map((n) => addDays('2025-10-01', n));

const scenario = fc.record({
  sets: fc.array(
    fc.record({
      weeks: fc.integer({ min: 1, max: 4 }),
      perWeek: fc.integer({ min: 1, max: 3 }),
      // Which positions have a video (a week may have none).
      present: fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
      name: fc.constantFrom('Balance', 'Strength', 'Chair'),
    }),
    { minLength: 1, maxLength: 3 },
  ),
  people: fc.array(
    fc.record({
      registeredAt: instant,
      org: fc.option(fc.constantFrom(...ORGS)),
      programme: fc.option(fc.constantFrom(...PROGRAMMES)),
      device: fc.constantFrom('none', 'current', 'history'),
      progress: fc.option(fc.record({ set: fc.nat(), startOffset: fc.integer({ min: -2, max: 40 }) })),
      outcome: fc.option(
        fc.record({
          status: fc.constantFrom('completed', 'withdrawn'),
          afterDays: fc.integer({ min: 0, max: 60 }),
          reason: fc.option(fc.constantFrom(...WITHDRAWAL_REASONS)),
        }),
      ),
      views: fc.array(fc.record({ pick: fc.nat(), at: instant }), { maxLength: 8 }),
    }),
    { maxLength: 14 },
  ),
  history: fc.array(fc.record({ day, counts: fc.tuple(fc.nat(9), fc.nat(9), fc.nat(9)) }), { maxLength: 10 }),
  period: fc.record({
    from: day,
    length: fc.integer({ min: 0, max: 120 }),
    by: fc.constantFrom('month', 'week'),
  }),
});
type Scenario = typeof scenario extends fc.Arbitrary<infer S> ? S : never;

interface StoredSet {
  id: number;
  name: string;
  weeks: number;
  videos: { id: number; week: number; day: number; title: string }[];
}
interface StoredPerson {
  registeredOn: string;
  org: string;
  programme: string;
  hadDevice: boolean;
  progress: { setId: number; started: string } | null;
  status: 'active' | 'completed' | 'withdrawn';
  dischargedOn: string | null;
  reason: WithdrawalReason | null;
  views: { videoId: number; at: Date }[];
}
interface Stored {
  sets: StoredSet[];
  people: StoredPerson[];
  history: Map<string, [number, number, number]>;
}

const normalised = (value: string | null) =>
  value === null || value.trim() === '' ? NOT_RECORDED_LABEL : value.trim();

async function store(s: Scenario): Promise<Stored> {
  const db = t.ctx.database.db;
  for (const table of [adherenceHistory, dailyViews, participants, authorizedDevices, videoSets])
    await db.delete(table);
  const site = await firstSite(db);
  const sets: StoredSet[] = [];
  for (const shape of s.sets) {
    const [set] = await db
      .insert(videoSets)
      .values({
        set_name: shape.name,
        number_of_weeks: shape.weeks,
        videos_in_week: shape.perWeek,
        organisation_id: site.organisation_id,
      })
      .returning();
    const positions = Array.from({ length: shape.weeks * shape.perWeek }, (_, i) => ({
      week: Math.floor(i / shape.perWeek) + 1,
      day: (i % shape.perWeek) + 1,
    })).filter((_, i) => shape.present[i % shape.present.length]);
    const rows =
      positions.length === 0
        ? []
        : await db
            .insert(videos)
            .values(
              positions.map((p) => ({
                fitness_video_set_id: set!.fitness_video_set_id,
                title: `W${p.week}D${p.day}`,
                description: 'x',
                file_location_path: `uploads/${set!.fitness_video_set_id}-${p.week}-${p.day}`,
                week_number: p.week,
                day_number: p.day,
              })),
            )
            .returning();
    sets.push({
      id: set!.fitness_video_set_id,
      name: shape.name,
      weeks: shape.weeks,
      videos: rows.map((v) => ({ id: v.video_id, week: v.week_number, day: v.day_number, title: v.title })),
    });
  }
  const people: StoredPerson[] = [];
  const perDay = new Map<string, number>();
  for (const p of s.people) {
    const registeredOn = calendarDate(p.registeredAt, TZ);
    const device =
      p.device === 'current'
        ? (
            await db
              .insert(authorizedDevices)
              .values({
                name: 'T',
                uuid: `${people.length}abc${sets[0]!.id}`,
                organisation_id: site.organisation_id,
              })
              .returning()
          )[0]!
        : null;
    const status = p.outcome?.status ?? 'active';
    const dischargedOn = p.outcome ? addDays(registeredOn, p.outcome.afterDays) : null;
    const reason = status === 'withdrawn' ? (p.outcome?.reason ?? null) : null;
    const [row] = await db
      .insert(participants)
      .values({
        first_name: 'A',
        last_name: 'B',
        date_of_birth: '1960-01-01',
        phone_number: '+447700900000',
        address: 'x',
        ...site,
        created_at: p.registeredAt,
        referring_organisation: p.org,
        programme_referred_to: p.programme,
        authorized_device_id: device?.authorized_device_id ?? null,
        status,
        discharged_on: dischargedOn,
        discharge_reason: reason,
      })
      .returning();
    const id = row!.participant_id;
    if (p.device === 'history') {
      await db
        .insert(deviceAssignments)
        .values({ participant_id: id, device_uuid: 'gone', device_name: 'Gone' });
    }
    let progress: StoredPerson['progress'] = null;
    const views: StoredPerson['views'] = [];
    if (p.progress) {
      const set = sets[p.progress.set % sets.length]!;
      const started = addDays(registeredOn, p.progress.startOffset);
      await db.insert(participationProgress).values({
        participant_id: id,
        fitness_video_set_id: set.id,
        started_date: started,
        last_seen_date: started,
      });
      progress = { setId: set.id, started };
      const seen = new Set<number>();
      for (const v of p.views) {
        if (set.videos.length === 0) break;
        const video = set.videos[v.pick % set.videos.length]!;
        if (seen.has(video.id)) continue;
        seen.add(video.id);
        views.push({ videoId: video.id, at: v.at });
        const viewDay = calendarDate(v.at, TZ);
        perDay.set(viewDay, (perDay.get(viewDay) ?? 0) + 1);
      }
      if (views.length > 0) {
        await db.insert(seenVideos).values(
          views.map((v) => {
            const video = set.videos.find((x) => x.id === v.videoId)!;
            return {
              participant_id: id,
              video_id: v.videoId,
              fitness_video_set_id: set.id,
              week_number: video.week,
              day_number: video.day,
              created_at: v.at,
            };
          }),
        );
      }
    }
    people.push({
      registeredOn,
      org: normalised(p.org),
      programme: normalised(p.programme),
      hadDevice: p.device !== 'none',
      progress,
      status,
      dischargedOn,
      reason,
      views,
    });
  }
  // The dashboard's rollup, as recordViews keeps it: views per programme day.
  if (perDay.size > 0)
    await db
      .insert(dailyViews)
      .values([...perDay].map(([d, views]) => ({ day: d, site_id: site.site_id, views })));
  const history = new Map(s.history.map((h) => [h.day, h.counts] as const));
  if (history.size > 0) {
    await db.insert(adherenceHistory).values(
      [...history].map(([d, [a, b, c]]) => ({
        day: d,
        site_id: site.site_id,
        on_track: a,
        slightly_behind: b,
        behind: c,
      })),
    );
  }
  return { sets, people, history };
}

// ---- the reference ----

const dayNumber = (d: string) => Date.parse(`${d}T00:00:00Z`) / 86_400_000;
const daysBetween = (a: string, b: string) => dayNumber(b) - dayNumber(a);

function bucketStart(d: string, by: ReportGrouping): string {
  if (by === 'month') return `${d.slice(0, 7)}-01`;
  const weekday = (new Date(`${d}T00:00:00Z`).getUTCDay() + 6) % 7; // Monday 0
  return addDays(d, -weekday);
}
function bucketLabel(start: string, by: ReportGrouping): string {
  if (by === 'month') return start.slice(0, 7);
  // The ISO year and week of a Monday: those of its Thursday.
  const thursday = addDays(start, 3);
  const year = thursday.slice(0, 4);
  const week = Math.floor(daysBetween(`${year}-01-01`, thursday) / 7) + 1;
  return `${year}-W${String(week).padStart(2, '0')}`;
}
function bucketEnd(start: string, by: ReportGrouping): string {
  if (by === 'week') return addDays(start, 6);
  const [y, m] = [Number(start.slice(0, 4)), Number(start.slice(5, 7))];
  return addDays(m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`, -1);
}
function buckets(p: ReportPeriod) {
  const out: { period: string; starts_on: string; first: string; last: string }[] = [];
  for (let b = bucketStart(p.from, p.by); b <= p.to; b = addDays(bucketEnd(b, p.by), 1)) {
    const end = bucketEnd(b, p.by);
    out.push({
      period: bucketLabel(b, p.by),
      starts_on: b,
      first: b < p.from ? p.from : b,
      last: end > p.to ? p.to : end,
    });
  }
  return out;
}
const inside = (d: string, first: string, last: string) => d >= first && d <= last;
const tally = (names: string[]) =>
  [...new Set(names)]
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((name) => ({ name, count: names.filter((n) => n === name).length }));
const started = (p: StoredPerson) => p.progress !== null && p.hadDevice;

function expected(s: Stored, p: ReportPeriod): ReportsAnswers {
  const bs = buckets(p);
  const period = { from: p.from, to: p.to, by: p.by };
  const cohortOf = (b: (typeof bs)[number]) =>
    s.people.filter((x) => inside(x.registeredOn, b.first, b.last));
  const everyone = s.people.filter((x) => inside(x.registeredOn, p.from, p.to));
  const toStart = (xs: StoredPerson[]) =>
    xs.filter(started).map((x) => daysBetween(x.registeredOn, x.progress!.started));
  const asOf = p.to < TODAY ? p.to : TODAY;
  const cohort = s.people.filter((x) => started(x) && inside(x.progress!.started, p.from, asOf));
  const reasonIndex = (r: WithdrawalReason | null) =>
    r === null ? WITHDRAWAL_REASONS.length : WITHDRAWAL_REASONS.indexOf(r);
  const withdrawn = everyone.filter((x) => x.status === 'withdrawn');
  const historyDays = [...s.history.keys()].sort();
  const byName = [...s.sets].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id));
  return {
    referrals: {
      report: 'referrals',
      period,
      rows: bs.map((b) => ({
        period: b.period,
        starts_on: b.starts_on,
        referred: cohortOf(b).length,
        by_organisation: tally(cohortOf(b).map((x) => x.org)),
        by_programme: tally(cohortOf(b).map((x) => x.programme)),
      })),
    },
    flow: {
      report: 'flow',
      period,
      rows: bs.map((b) => {
        const c = cohortOf(b);
        return {
          period: b.period,
          starts_on: b.starts_on,
          referred: c.length,
          started: c.filter(started).length,
          completed: c.filter((x) => x.status === 'completed').length,
          withdrawn: c.filter((x) => x.status === 'withdrawn').length,
          active: c.filter((x) => x.status === 'active').length,
          median_days_to_start: percentile(toStart(c), 0.5),
          p90_days_to_start: percentile(toStart(c), 0.9),
        };
      }),
      withdrawal_reasons: [...new Set(withdrawn.map((x) => x.reason))]
        .sort((a, b) => reasonIndex(a) - reasonIndex(b))
        .map((reason) => ({ reason, count: withdrawn.filter((x) => x.reason === reason).length })),
      days_to_start: { median: percentile(toStart(everyone), 0.5), p90: percentile(toStart(everyone), 0.9) },
    },
    adherence: {
      report: 'adherence',
      period,
      data_from: historyDays[0] ?? null,
      rows: bs.map((b) => {
        const last = historyDays.filter((d) => inside(d, b.first, b.last)).pop() ?? null;
        const counts = last ? s.history.get(last)! : null;
        return {
          period: b.period,
          starts_on: b.starts_on,
          as_of: last,
          on_track: counts?.[0] ?? null,
          slightly_behind: counts?.[1] ?? null,
          behind: counts?.[2] ?? null,
        };
      }),
    },
    'programme-weeks': {
      report: 'programme-weeks',
      period,
      rows: byName.flatMap((set) =>
        [...new Set(set.videos.map((v) => v.week))]
          .sort((a, b) => a - b)
          .map((week) => {
            const weekVideos = set.videos.filter((v) => v.week === week).map((v) => v.id);
            const reached = cohort.filter(
              (x) =>
                x.progress!.setId === set.id &&
                Math.min(set.weeks, Math.floor(daysBetween(x.progress!.started, asOf) / 7) + 1) >= week,
            );
            return {
              video_set_id: set.id,
              set_name: set.name,
              week,
              reached: reached.length,
              watched_all: reached.filter((x) =>
                weekVideos.every((id) =>
                  x.views.some((v) => v.videoId === id && calendarDate(v.at, TZ) <= p.to),
                ),
              ).length,
              still_active: reached.filter(
                (x) =>
                  x.dischargedOn === null || x.dischargedOn >= addDays(x.progress!.started, 7 * (week - 1)),
              ).length,
            };
          }),
      ),
    },
    videos: {
      report: 'videos',
      period,
      rows: byName.flatMap((set) => {
        const counted = [...set.videos]
          .sort((a, b) => a.week - b.week || a.day - b.day)
          .map((v) => ({
            video: v,
            views: s.people
              .flatMap((x) => x.views)
              .filter((w) => w.videoId === v.id && inside(calendarDate(w.at, TZ), p.from, p.to)).length,
          }));
        const least = Math.min(...counted.map((c) => c.views));
        const most = Math.max(...counted.map((c) => c.views));
        return counted.map(({ video, views }) => ({
          video_set_id: set.id,
          set_name: set.name,
          video_id: video.id,
          title: video.title,
          week: video.week,
          day: video.day,
          views,
          least_watched: views === least && least < most,
        }));
      }),
    },
    views: {
      report: 'views',
      period,
      rows: bs.map((b) => ({
        period: b.period,
        starts_on: b.starts_on,
        views: s.people.flatMap((x) => x.views).filter((v) => inside(calendarDate(v.at, TZ), b.first, b.last))
          .length,
      })),
    },
  };
}

describe('each report in SQL', () => {
  it('answers what the plain TypeScript reference counts, on random programmes and periods', async () => {
    const c: ReportContext = { db: t.ctx.database.db, timeZone: TZ, today: TODAY };
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const stored = await store(s);
        const to = addDays(s.period.from, s.period.length);
        const period: ReportPeriod = { from: s.period.from, to, by: s.period.by };
        const want = expected(stored, period);
        for (const name of [
          'referrals',
          'flow',
          'adherence',
          'programme-weeks',
          'videos',
          'views',
        ] as const) {
          const got = await reportOf(c, name, period);
          if (name === 'flow') {
            // Percentiles are interpolated in floating point on both sides: compared to 9 places.
            const round = (a: ReportsAnswers['flow']) =>
              JSON.parse(
                JSON.stringify(a, (_k, v: unknown) =>
                  typeof v === 'number' ? Math.round(v * 1e9) / 1e9 : v,
                ),
              ) as unknown;
            expect(round(got as ReportsAnswers['flow']), name).toEqual(round(want.flow));
          } else {
            expect(got, name).toEqual(want[name]);
          }
        }
      }),
      { numRuns: Number(process.env.REPORTS_PROPERTY_RUNS ?? 25) },
    );
  });
});
