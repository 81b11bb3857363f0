import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FOLLOWUP_REASONS,
  LANGUAGES,
  THUMBNAIL_PROCESSING,
  adherenceOf,
  type FollowupEntry,
  type FollowupReason,
} from '@pathway/contract';
import { commands, parseCommandArgs } from '../commands.js';
import { rowsOf } from '../db/rows.js';
import { participants, videos } from '../db/schema.js';
import { runAdherenceCheck } from '../modules/adherence/check.js';
import { ManualClock, createTestApp, signedInCookie, type TestApp } from '../../test/harness.js';
import { eventually } from '../../test/media-helpers.js';

const clock = new ManualClock(new Date('2025-06-18T11:00:00Z'));
let t: TestApp;
const seed = (args: Record<string, unknown> = {}) =>
  commands['seed-demo']!.run(t.ctx, parseCommandArgs(commands['seed-demo']!, args));

beforeAll(async () => {
  t = await createTestApp({ clock, workers: true });
});
afterAll(() => t.close());

describe('seed-demo', () => {
  it('fills an empty database with a living programme', async () => {
    const report = await seed();
    expect(report).toMatchObject({ video_sets: 2, videos: 32, participants: 24, devices: 25 });
    expect(report.views).toBeGreaterThan(100);

    // Every adherence state, newcomers without a programme, and people waiting for a tablet.
    const rows = await t.ctx.database.db.execute(sql`
      select a.days_behind, p.authorized_device_id is not null as has_device, pp.participant_id is not null as has_progress
      from participants p
      join participant_adherence a on a.participant_id = p.participant_id
      left join fitness_participation_progress pp on pp.participant_id = p.participant_id
      where p.status = 'active'`);
    const people = rowsOf<{ days_behind: number; has_device: boolean; has_progress: boolean }>(rows);
    const states = new Set(people.filter((p) => p.has_progress).map((p) => adherenceOf(p.days_behind)));
    expect(states).toEqual(new Set(['onTrack', 'slightlybehind', 'behind']));
    expect(people.filter((p) => !p.has_progress && p.has_device).length).toBe(2);
    expect(people.filter((p) => !p.has_device).length).toBe(2);

    // The dashboard's rollup holds exactly the views recorded, and has yesterday's.
    const [totals] = rowsOf<{ views: number; rollup: number }>(
      await t.ctx.database.db.execute(
        sql`select (select count(*)::int from seen_videos) as views, (select sum(views)::int from daily_views) as rollup`,
      ),
    );
    expect(totals!.rollup).toBe(totals!.views);
    const { cookie } = await signedInCookie(t.ctx, 'basic access');
    const dashboard = (
      await t.app.inject({ method: 'GET', url: '/api/dashboard', headers: { cookie } })
    ).json();
    expect(dashboard.participantsCount.counted).toBe(22);
    // Two were discharged, one completed and one withdrawn.
    const discharged = rowsOf<{ status: string; n: number }>(
      await t.ctx.database.db.execute(
        sql`select status, count(*)::int as n from participants where status <> 'active' group by 1 order by 1`,
      ),
    );
    expect(discharged).toEqual([
      { status: 'completed', n: 1 },
      { status: 'withdrawn', n: 1 },
    ]);

    // A running programme's worklist: every reason, a few of each, and reminders failing for a
    // few (most tablets registered their push token and call every day).
    const counts = (
      await t.app.inject({ method: 'GET', url: '/api/followup/counts', headers: { cookie } })
    ).json<{ total: number; reasons: Record<FollowupReason, number> }>();
    for (const reason of FOLLOWUP_REASONS) expect(counts.reasons[reason], reason).toBeGreaterThan(0);
    expect(counts.reasons.reminders_failing).toBeLessThanOrEqual(2);
    expect(counts.total).toBeLessThan(22);
    const tablets = rowsOf<{ calling: number; with_device: number }>(
      await t.ctx.database.db.execute(sql`
        select count(*) filter (where f.tablet_called_at > ${clock.now().toISOString()}::timestamptz - interval '1 day' and not f.token_empty)::int as calling,
          count(*) filter (where f.has_device)::int as with_device
        from participant_followup f where f.active`),
    )[0]!;
    expect(tablets.calling * 2).toBeGreaterThan(tablets.with_device);
    // The worklist's page agrees with its counts, and every "since" is a fact of the demo's history.
    const page = (
      await t.app.inject({ method: 'GET', url: '/api/followup?perPage=500', headers: { cookie } })
    ).json<{ data: FollowupEntry[]; pagination: { total: number } }>();
    expect(page.pagination.total).toBe(counts.total);
    for (const row of page.data) expect(row.since_exact, String(row.participant_id)).toBe(true);
    expect(dashboard.yesterdayWatched[0].created_count).toBeGreaterThan(0);
    // The chart's window: the 8 days ending at the latest day with views, each with views in the demo.
    expect(dashboard.seenCount.length).toBe(8);

    // Each adherence card's number is its filtered list's total: no one without a programme in it.
    for (const [state, card] of [
      ['onTrack', 'onTrack'],
      ['slightlybehind', 'slightlyBehind'],
      ['behind', 'behind'],
    ] as const) {
      const list = (
        await t.app.inject({
          method: 'GET',
          url: `/api/participant?state=${state}&perPage=500`,
          headers: { cookie },
        })
      ).json();
      expect(list.pagination.total, state).toBe(dashboard.participantsProgress[card]);
      expect(list.data, state).toHaveLength(list.pagination.total);
      for (const p of list.data) expect(p.adherence_state, state).toBe(state);
    }

    // Only the form's 21 languages: the demo's participants can be edited without a refusal.
    const languages = rowsOf<{ language: string | null }>(
      await t.ctx.database.db.execute(sql`select distinct language from participants`),
    ).map((r) => r.language);
    for (const language of languages) expect(LANGUAGES).toContain(language);

    // The history follows the programme rules: today's check, run again, finds nothing to do.
    expect((await runAdherenceCheck(t.ctx)).ran).toBe(false);

    // Real videos and thumbnails, made by the video library's own job.
    const [first] = await t.ctx.database.db.select().from(videos).where(eq(videos.week_number, 1)).limit(1);
    expect(await t.ctx.media.blobs.stat(first!.file_location_path)).not.toBeNull();
    const thumb = await eventually(async () => {
      const [row] = await t.ctx.database.db.select().from(videos).where(eq(videos.video_id, first!.video_id));
      return row!.video_thumbnail_url !== THUMBNAIL_PROCESSING ? row!.video_thumbnail_url : undefined;
    });
    expect(thumb).toMatch(/^thumbs\//);
  }, 300_000);

  it('refuses a database that already has participants, unless forced', async () => {
    const before = (await t.ctx.database.db.select().from(participants)).length;
    await expect(seed()).rejects.toThrow(/already has 24 participants.*--force/);
    expect((await t.ctx.database.db.select().from(participants)).length).toBe(before);
    await seed({ force: true });
    expect((await t.ctx.database.db.select().from(participants)).length).toBe(before + 24);
  }, 300_000);
});
