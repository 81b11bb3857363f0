import { and, eq, sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, asInstance } from '../../test/harness.js';
import {
  libraryEditor,
  makeEnrolledParticipant,
  makeVideoSet,
  makeVideos,
} from '../../test/programme-factories.js';
import { ProgressService } from '../modules/progress/service.js';
import { recordViews } from '../modules/progress/views.js';
import { reportOf } from '../modules/reports/service.js';
import { VideoService } from '../modules/videos/library/video-service.js';
import { rowsOf } from './rows.js';
import {
  deviceAssignments,
  participants,
  participationProgress,
  seenVideos,
  videos as videoTable,
} from './schema.js';

/**
 * The reports' rollups of seen_videos (seen_weeks, video_day_views) are kept by triggers
 * (migration 0019), and where people stop's (seen_weeks' completion instants, report_cohort,
 * programme_starts, programme_week_completions and _totals) by those of migration 0020: after
 * every kind of change they must equal a recount from the tables they summarise.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function expectInStep(step: string) {
  const weeks = rowsOf<Record<string, unknown>>(
    await t.ctx.database.db.execute(sql`
      with counted as (
        select participant_id, fitness_video_set_id, week_number, count(*)::int as seen, max(created_at) as last_seen_at
        from seen_videos group by 1, 2, 3
      )
      (select 'counted, not in seen_weeks' as wrong, * from counted
       except select 'counted, not in seen_weeks', participant_id, fitness_video_set_id, week_number, seen, last_seen_at from seen_weeks)
      union all
      (select 'in seen_weeks, not counted', participant_id, fitness_video_set_id, week_number, seen, last_seen_at from seen_weeks
       except select 'in seen_weeks, not counted', * from counted)`),
  );
  expect(weeks, `${step}: seen_weeks`).toEqual([]);
  const days = rowsOf<Record<string, unknown>>(
    await t.ctx.database.db.execute(sql`
      with counted as (
        select (created_at at time zone 'UTC')::date as day, video_id, count(*)::int as views from seen_videos group by 1, 2
      )
      (select 'counted, not in video_day_views' as wrong, * from counted
       except select 'counted, not in video_day_views', day, video_id, views from video_day_views)
      union all
      (select 'in video_day_views, not counted', day, video_id, views from video_day_views
       except select 'in video_day_views, not counted', * from counted)`),
  );
  expect(days, `${step}: video_day_views`).toEqual([]);
  await expectProgrammeWeeksInStep(step);
}

/** Rows of `recounted` missing from `kept` and the other way round, labelled. */
function differences(kept: SQL, recounted: SQL): SQL {
  return sql`(select 'recounted, not kept' as wrong, * from (${recounted}) r except select 'recounted, not kept', * from (${kept}) k)
    union all
    (select 'kept, not recounted', * from (${kept}) k except select 'kept, not recounted', * from (${recounted}) r)`;
}

/** Where people stop's rollups against their definition, recomputed from the base tables. */
async function expectProgrammeWeeksInStep(step: string) {
  // The n-th view of a week in time order (n its videos now) completes it; the (n+1)-th undoes it.
  const weeks = sql`
    select r.participant_id, r.fitness_video_set_id, r.week_number,
      max(r.created_at) filter (where r.rank = v.n) as completed_at,
      max(r.created_at) filter (where r.rank = v.n + 1) as completed_until
    from (select sv.*, row_number() over (partition by participant_id, fitness_video_set_id, week_number
                                          order by created_at) as rank from seen_videos sv) r
    left join (select fitness_video_set_id, week_number, count(*)::int as n from videos group by 1, 2) v
      on v.fitness_video_set_id = r.fitness_video_set_id and v.week_number = r.week_number
    group by 1, 2, 3`;
  // The report's cohort: a programme, and a tablet now or in the device history.
  const cohort = sql`
    select pr.participant_id, pr.fitness_video_set_id, pr.started_date as started_on,
      case when pa.discharged_on is null then null when pa.discharged_on < pr.started_date then 0
           else (pa.discharged_on - pr.started_date) / 7 + 1 end as discharge_week
    from fitness_participation_progress pr join participants pa on pa.participant_id = pr.participant_id
    where pa.authorized_device_id is not null
      or exists (select 1 from device_assignments da where da.participant_id = pa.participant_id)`;
  const events = sql`
    select (e.at at time zone 'UTC')::date as day, w.fitness_video_set_id, w.week_number, c.started_on, e.n
    from (${weeks}) w
    join (${cohort}) c on c.participant_id = w.participant_id and c.fitness_video_set_id = w.fitness_video_set_id
    cross join lateral (values (w.completed_at, 1), (w.completed_until, -1)) e(at, n)
    where e.at is not null`;
  const checks: [string, SQL, SQL][] = [
    [
      'seen_weeks completion',
      sql`select participant_id, fitness_video_set_id, week_number, completed_at, completed_until from seen_weeks`,
      weeks,
    ],
    [
      'report_cohort',
      sql`select participant_id, fitness_video_set_id, started_on, discharge_week from report_cohort`,
      cohort,
    ],
    [
      'programme_starts',
      sql`select fitness_video_set_id, started_on, discharge_week, participants from programme_starts`,
      sql`select fitness_video_set_id, started_on, discharge_week, count(*)::int from (${cohort}) c group by 1, 2, 3`,
    ],
    [
      'programme_week_completions',
      sql`select day, fitness_video_set_id, week_number, started_on, participants from programme_week_completions`,
      sql`select day, fitness_video_set_id, week_number, started_on, sum(n)::int from (${events}) e
          group by 1, 2, 3, 4 having sum(n) <> 0`,
    ],
    [
      'programme_week_totals',
      sql`select fitness_video_set_id, week_number, started_on, participants from programme_week_totals`,
      sql`select fitness_video_set_id, week_number, started_on, sum(n)::int from (${events}) e
          group by 1, 2, 3 having sum(n) <> 0`,
    ],
  ];
  for (const [name, kept, recounted] of checks) {
    expect(rowsOf(await t.ctx.database.db.execute(differences(kept, recounted))), `${step}: ${name}`).toEqual(
      [],
    );
  }
}

describe("the reports' rollups of seen videos", () => {
  it('follow views, deletions of the latest view, new starts, set changes, video and participant deletion', async () => {
    const first = await makeEnrolledParticipant(t.ctx.database.db, {
      weeks: 2,
      perWeek: 3,
      started_date: '2025-01-01',
    });
    const second = await makeEnrolledParticipant(t.ctx.database.db, {
      set: first.set,
      started_date: '2025-01-01',
    });
    const videoIds = first.videos.map((v) => v.video_id);
    const setId = first.set.fitness_video_set_id;
    const firstId = first.participant.participant_id;
    const secondId = second.participant.participant_id;
    await expectInStep('enrolled, nothing seen');

    await asInstance(() => recordViews(t.ctx, firstId, setId, videoIds.slice(0, 3)));
    await asInstance(() => recordViews(t.ctx, secondId, setId, videoIds.slice(0, 2)));
    await asInstance(() => recordViews(t.ctx, firstId, setId, [videoIds[1]!, videoIds[3]!]));
    await expectInStep('views recorded, one again');

    // Views on several days, the latest of a week removed, then an earlier one.
    const view = (participant_id: number, i: number, at: string) => ({
      participant_id,
      video_id: videoIds[i]!,
      fitness_video_set_id: setId,
      week_number: Math.floor(i / 3) + 1,
      day_number: (i % 3) + 1,
      created_at: new Date(at),
    });
    await t.ctx.database.db
      .insert(seenVideos)
      .values([
        view(secondId, 2, '2025-01-03T23:30:00Z'),
        view(secondId, 4, '2025-01-09T00:10:00Z'),
        view(secondId, 5, '2025-01-10T12:00:00Z'),
      ]);
    await expectInStep('views of several days in one statement');
    const removeView = (participantId: number, i: number) =>
      t.ctx.database.db
        .delete(seenVideos)
        .where(and(eq(seenVideos.participant_id, participantId), eq(seenVideos.video_id, videoIds[i]!)));
    await removeView(secondId, 5);
    await expectInStep("a week's latest view removed");
    await removeView(secondId, 4);
    await expectInStep("a week's last view removed");

    // Views of another set, then back to the first set: a fresh start there removes its views.
    const other = await makeVideoSet(t.ctx.database.db, { weeks: 1, perWeek: 2 });
    const otherVideos = await makeVideos(t.ctx.database.db, other);
    const progress = new ProgressService(t.ctx);
    await asInstance(() =>
      progress.update(first.progress.fitness_participation_progress_id, {
        fitness_video_set_id: other.fitness_video_set_id,
      }),
    );
    await asInstance(() =>
      recordViews(
        t.ctx,
        firstId,
        other.fitness_video_set_id,
        otherVideos.map((v) => v.video_id),
      ),
    );
    await expectInStep('moved to another set, views there');
    await asInstance(() =>
      progress.update(first.progress.fitness_participation_progress_id, { fitness_video_set_id: setId }),
    );
    await expectInStep('back on the first set, a fresh start');

    await t.ctx.database.db
      .delete(participationProgress)
      .where(eq(participationProgress.participant_id, secondId));
    await expectInStep('a programme ended');

    await asInstance(async () =>
      new VideoService(t.ctx).remove(videoIds[1]!, await libraryEditor(t.ctx.database.db)),
    );
    await expectInStep('a video deleted');

    // Rows changed in place (no code does this; a repair by hand might).
    await t.ctx.database.db
      .update(seenVideos)
      .set({ participant_id: firstId, created_at: new Date('2025-02-01T01:00:00Z') })
      .where(and(eq(seenVideos.participant_id, secondId), eq(seenVideos.video_id, videoIds[0]!)));
    await t.ctx.database.db
      .update(seenVideos)
      .set({ created_at: new Date('2024-12-31T23:59:00Z') })
      .where(eq(seenVideos.participant_id, secondId));
    await expectInStep('views moved to another participant and day by hand');

    await t.ctx.database.db.delete(participants).where(eq(participants.participant_id, firstId));
    await expectInStep('a participant deleted');
  });

  it('follow where people stop: starts, discharges, tablets, device history, videos moved or added', async () => {
    const a = await makeEnrolledParticipant(t.ctx.database.db, {
      weeks: 2,
      perWeek: 2,
      started_date: '2025-05-01',
    });
    const set = a.set;
    const setId = set.fitness_video_set_id;
    const b = await makeEnrolledParticipant(t.ctx.database.db, { set, started_date: '2025-05-03' });
    const c = await makeEnrolledParticipant(t.ctx.database.db, { set, started_date: '2025-04-20' });
    const [aId, bId, cId] = [a, b, c].map((x) => x.participant.participant_id) as [number, number, number];
    const ids = a.videos.map((v) => v.video_id);
    const view = (participant_id: number, i: number, at: string) => ({
      participant_id,
      video_id: ids[i]!,
      fitness_video_set_id: setId,
      week_number: a.videos[i]!.week_number,
      day_number: a.videos[i]!.day_number,
      created_at: new Date(at),
    });
    // Weeks completed on different UTC days, one of them by two views in one statement.
    await t.ctx.database.db
      .insert(seenVideos)
      .values([
        view(aId, 0, '2025-05-01T09:00:00Z'),
        view(aId, 1, '2025-05-02T23:59:00Z'),
        view(bId, 0, '2025-05-04T10:00:00Z'),
        view(bId, 1, '2025-05-04T11:00:00Z'),
        view(bId, 2, '2025-05-10T08:00:00Z'),
        view(cId, 2, '2025-04-28T08:00:00Z'),
      ]);
    await asInstance(() => recordViews(t.ctx, bId, setId, [ids[3]!]));
    await expectInStep('weeks completed by views');
    const kept = async (query: SQL) => rowsOf<{ n: number }>(await t.ctx.database.db.execute(query))[0]!.n;
    // Not in step by being empty: a completed week 1, b both weeks.
    expect(await kept(sql`select sum(participants)::int as n from programme_week_totals`)).toBe(3);

    const setProgress = (participantId: number, fields: Partial<typeof participationProgress.$inferInsert>) =>
      t.ctx.database.db
        .update(participationProgress)
        .set(fields)
        .where(eq(participationProgress.participant_id, participantId));
    await setProgress(aId, { started_date: '2025-04-24' });
    await expectInStep('a programme start moved');

    const setParticipant = (participantId: number, fields: Partial<typeof participants.$inferInsert>) =>
      t.ctx.database.db
        .update(participants)
        .set(fields)
        .where(eq(participants.participant_id, participantId));
    await setParticipant(bId, { status: 'completed', discharged_on: '2025-05-12' });
    await setParticipant(cId, { status: 'withdrawn', discharged_on: '2025-04-01' });
    await expectInStep('discharged, one before their start');
    await setParticipant(bId, { status: 'active', discharged_on: null });
    await expectInStep('reinstated');

    await setParticipant(aId, { authorized_device_id: null });
    await expectInStep('tablet taken off, none in the history: not started');
    await setParticipant(aId, { authorized_device_id: a.device.authorized_device_id });
    await expectInStep('tablet put back');
    await t.ctx.database.db
      .insert(deviceAssignments)
      .values({ participant_id: cId, device_uuid: 'c', device_name: 'C' });
    await setParticipant(cId, { authorized_device_id: null });
    await expectInStep('tablet taken off, one in the history: still started');
    await t.ctx.database.db.delete(deviceAssignments).where(eq(deviceAssignments.participant_id, cId));
    await expectInStep('device history removed');

    // Week 1 loses a video to week 2: its two views now outnumber its one video.
    await t.ctx.database.db
      .update(videoTable)
      .set({ week_number: 2, day_number: 3 })
      .where(eq(videoTable.video_id, ids[1]!));
    await expectInStep('a video moved from week 1 to week 2');
    expect(await kept(sql`select count(*)::int as n from seen_weeks where completed_until is not null`)).toBe(
      2,
    );
    const [added] = await makeVideos(t.ctx.database.db, set, [{ week: 1, day: 5 }]);
    await expectInStep('a video added to week 1');
    await t.ctx.database.db.insert(seenVideos).values({
      participant_id: cId,
      video_id: added!.video_id,
      fitness_video_set_id: setId,
      week_number: 1,
      day_number: 5,
      created_at: new Date('2025-05-20T12:00:00Z'),
    });
    await t.ctx.database.db
      .delete(seenVideos)
      .where(and(eq(seenVideos.participant_id, bId), eq(seenVideos.video_id, ids[0]!)));
    await expectInStep('views added and deleted after the moves');

    await setProgress(bId, {
      fitness_video_set_id: (await makeVideoSet(t.ctx.database.db)).fitness_video_set_id,
    });
    await expectInStep('moved to another set');
    await t.ctx.database.db.delete(participants).where(eq(participants.participant_id, aId));
    await expectInStep('a participant deleted');
    await asInstance(async () =>
      new VideoService(t.ctx).remove(added!.video_id, await libraryEditor(t.ctx.database.db)),
    );
    await expectInStep('a video deleted');
  });

  it("counts a video's views by the programme's days, whatever the offset of its time zone", async () => {
    const { participant, set, videos } = await makeEnrolledParticipant(t.ctx.database.db, {
      weeks: 1,
      perWeek: 3,
      started_date: '2025-03-01',
    });
    // Around midnight UTC and local midnights of zones far from it.
    const instants = ['2025-03-01T18:14:00Z', '2025-03-01T23:59:59Z', '2025-03-02T00:00:00Z'];
    await t.ctx.database.db.insert(seenVideos).values(
      videos.map((v, i) => ({
        participant_id: participant.participant_id,
        video_id: v.video_id,
        fitness_video_set_id: set.fitness_video_set_id,
        week_number: v.week_number,
        day_number: v.day_number,
        created_at: new Date(instants[i]!),
      })),
    );
    for (const timeZone of [
      'UTC',
      'Europe/London',
      'Asia/Kathmandu',
      'Pacific/Chatham',
      'America/St_Johns',
    ]) {
      for (const [from, to] of [
        ['2025-03-01', '2025-03-01'],
        ['2025-03-02', '2025-03-02'],
        ['2025-03-01', '2025-03-03'],
        ['2025-02-28', '2025-03-01'],
      ] as const) {
        const report = await reportOf({ db: t.ctx.database.db, timeZone, today: '2025-04-01' }, 'videos', {
          from,
          to,
          by: 'month',
        });
        const counted = rowsOf<{ video_id: number; n: number }>(
          await t.ctx.database.db.execute(sql`
            select video_id, count(*)::int as n from seen_videos
            where participant_id = ${participant.participant_id}
              and created_at >= (${from}::timestamp at time zone ${timeZone})
              and created_at < ((${to}::date + 1)::timestamp at time zone ${timeZone})
            group by video_id`),
        );
        const expected = videos.map((v) => counted.find((c) => c.video_id === v.video_id)?.n ?? 0);
        const answered = videos.map((v) => report.rows.find((r) => r.video_id === v.video_id)!.views);
        expect(answered, `${timeZone} ${from}..${to}`).toEqual(expected);
      }
    }
  });
});
