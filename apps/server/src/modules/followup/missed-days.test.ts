import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, type FollowupEntry } from '@pathway/contract';
import { participants, seenVideos } from '../../db/schema.js';
import { programmeToday } from '../../lib/programme-day.js';
import { runAdherenceCheck } from '../adherence/check.js';
import { addParticipant, issueDeviceToken } from '../../../test/factories.js';
import { ManualClock, createTestApp, signedInCookie, type TestApp } from '../../../test/harness.js';
import {
  makeDevice,
  makeParticipant,
  makeProgress,
  makeVideoSet,
  makeVideos,
} from '../../../test/programme-factories.js';

/**
 * The worklist's behind and slightly behind count the days that went by without their video
 * (the missed count), not today's video, which unlocks at midnight: at the morning check, someone
 * who watched every video up to yesterday, or who started today, is on track. The grid's days
 * behind still counts today's video, as the spec says.
 */
const clock = new ManualClock(new Date());
let t: TestApp;
let cookie: string;
let today: string;

beforeAll(async () => {
  t = await createTestApp({ clock });
  cookie = (await signedInCookie(t.ctx, 'full access')).cookie;
  today = programmeToday(t.ctx);
});
afterAll(() => t.close());

async function worklist(): Promise<FollowupEntry[]> {
  const res = await t.app.inject({ method: 'GET', url: '/api/followup?perPage=500', headers: { cookie } });
  expect(res.statusCode).toBe(200);
  return res.json<{ data: FollowupEntry[] }>().data;
}

/** The day's check again, as if it had not run yet (its reminders of that day go with its claim). */
async function morningCheck(day: string) {
  await t.ctx.database.db.execute(sql`delete from adherence_runs where run_date = ${day}`);
  await t.ctx.database.db.execute(sql`delete from push_outbox where dedupe_key like ${`%:${day}`}`);
  expect((await runAdherenceCheck(t.ctx, { today: day })).ran).toBe(true);
}

type Shape = { weeks: number; perWeek: number };
const sets = new Map<string, { setId: number; videoIds: number[]; shape: Shape }>();
async function setOf(shape: Shape) {
  const key = `${shape.weeks}x${shape.perWeek}`;
  let found = sets.get(key);
  if (!found) {
    const set = await makeVideoSet(t.ctx.database.db, shape);
    const videos = await makeVideos(t.ctx.database.db, set);
    found = { setId: set.fitness_video_set_id, videoIds: videos.map((v) => v.video_id), shape };
    sets.set(key, found);
  }
  return found;
}

/**
 * A participant whose tablet works (a device, a push token) who started `startedDaysAgo` days
 * before `today` and has watched the first `seen` videos of the set, in order.
 */
async function enrolled(shape: Shape, startedDaysAgo: number, seen: number) {
  const set = await setOf(shape);
  const device = await makeDevice(t.ctx.database.db);
  const p = await makeParticipant(t.ctx.database.db, { deviceId: device.authorized_device_id });
  await t.ctx.database.db
    .update(participants)
    .set({ push_notification_id: `tok-${p.participant_id}-abcdef` })
    .where(eq(participants.participant_id, p.participant_id));
  const started = addDays(today, -startedDaysAgo);
  await makeProgress(t.ctx.database.db, p.participant_id, set.setId, { started_date: started });
  if (seen > 0) {
    await t.ctx.database.db.insert(seenVideos).values(
      set.videoIds.slice(0, seen).map((video_id, i) => ({
        participant_id: p.participant_id,
        video_id,
        fitness_video_set_id: set.setId,
        week_number: Math.floor(i / shape.perWeek) + 1,
        day_number: (i % shape.perWeek) + 1,
      })),
    );
  }
  return { id: p.participant_id, started, device, set };
}

// Three videos a week: days 1-3 of each 7-day week unlock one video each, days 4-7 are rest days.
const threeAWeek = { weeks: 2, perWeek: 3 };
const daily = { weeks: 4, perWeek: 7 };

describe('behind and slightly behind count the days that went by without their video', () => {
  it('at the morning check, boundary by boundary, on weekdays, rest days and the next week', async () => {
    // [shape, started days ago, videos seen, reason or none, grid days behind, since (days after start)]
    const cases: [Shape, number, number, 'behind' | 'slightly_behind' | null, number, number | null][] = [
      [threeAWeek, 0, 0, null, 1, null], // started today: today's video is not missed yet
      [threeAWeek, 1, 1, null, 1, null], // watched yesterday's: on track
      [threeAWeek, 1, 0, 'slightly_behind', 2, 1], // yesterday's went by: 1 missed since today
      [threeAWeek, 2, 0, 'slightly_behind', 3, 1], // 2 missed since yesterday
      [threeAWeek, 3, 0, 'behind', 3, 3], // the third missed day went by last night
      [threeAWeek, 3, 3, null, 0, null], // rest day, all three seen
      [threeAWeek, 5, 2, 'slightly_behind', 1, 3], // rest days: the third video's day went by on day 3
      [threeAWeek, 7, 3, null, 1, null], // week 2's first day: its video is today's
      [threeAWeek, 8, 3, 'slightly_behind', 2, 8],
      [threeAWeek, 10, 3, 'behind', 3, 10],
      [threeAWeek, 20, 0, 'behind', 6, 3], // long after the end: behind since the third day went by
      [daily, 1, 0, 'slightly_behind', 2, 1],
      [daily, 2, 2, null, 1, null],
      [daily, 3, 1, 'slightly_behind', 3, 2],
      [daily, 4, 1, 'behind', 4, 4],
      [daily, 17, 1, 'behind', 17, 4], // 16 missed: behind since day 4, not since today
    ];
    const made: Awaited<ReturnType<typeof enrolled>>[] = [];
    for (const [shape, ago, seen] of cases) made.push(await enrolled(shape, ago, seen));
    await morningCheck(today);
    const rows = await worklist();
    for (const [i, [shape, ago, seen, reason, daysBehind, sinceDay]] of cases.entries()) {
      const label = `${shape.weeks}x${shape.perWeek}, started ${ago} days ago, ${seen} seen`;
      const row = rows.find((r) => r.participant_id === made[i]!.id);
      if (reason === null) {
        expect(row, label).toBeUndefined();
        continue;
      }
      expect(row, label).toMatchObject({
        reasons: [reason],
        days_behind: daysBehind,
        since: addDays(made[i]!.started, sinceDay!),
        since_exact: true,
      });
    }
  });

  it('a participant registered and given a programme today is not on the worklist', async () => {
    const { participant, device } = await addParticipant(t, cookie);
    const id = participant.participant_id;
    const { setId } = await setOf(daily);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/participationprogress',
      headers: { cookie },
      payload: { participant_id: id, fitness_video_set_id: setId },
    });
    expect(res.statusCode).toBe(201);
    expect((await worklist()).find((r) => r.participant_id === id)).toBeUndefined();
    await morningCheck(today);
    expect((await worklist()).find((r) => r.participant_id === id)).toBeUndefined();

    // The tablet signs in and registers its push token; tomorrow morning today's video went by.
    const bearer = await issueDeviceToken(t.ctx, device.authorized_device_id, id);
    expect(
      (
        await t.app.inject({
          method: 'PATCH',
          url: `/uuid/${device.uuid}`,
          payload: 'push_notification_id=fcm-token-registered-today',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await t.app.inject({
          method: 'PATCH',
          url: `/api/participant/${id}`,
          payload: 'purge_cache=false',
          headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/x-www-form-urlencoded' },
        })
      ).statusCode,
    ).toBe(200);
    const tomorrow = addDays(today, 1);
    await morningCheck(tomorrow);
    expect((await worklist()).find((r) => r.participant_id === id)).toMatchObject({
      reasons: ['slightly_behind'],
      since: tomorrow,
      since_exact: true,
    });
  });

  it('a view from the tablet takes the missed days off at once, and the grid keeps its days behind', async () => {
    const a = await enrolled(daily, 3, 0); // 3 missed: behind
    const b = await enrolled(daily, 1, 0); // 1 missed: slightly behind
    await morningCheck(today);
    const view = async (who: typeof a, count: number) => {
      const bearer = await issueDeviceToken(t.ctx, who.device.authorized_device_id, who.id);
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/videoset/view/${who.set.setId}/participant/${who.id}`,
        headers: { authorization: `Bearer ${bearer}` },
        payload: { day: '1', week: '1', videoIds: who.set.videoIds.slice(0, count).map(String) },
      });
      expect(res.statusCode).toBe(200);
    };
    await view(a, 1);
    await view(b, 1);
    const rows = await worklist();
    // a: 2 missed now (days 1 and 2 of the programme): slightly behind since the morning after day 1.
    expect(rows.find((r) => r.participant_id === a.id)).toMatchObject({
      reasons: ['slightly_behind'],
      since: addDays(a.started, 2),
      days_behind: 3,
    });
    // b: caught up with yesterday's video; today's is still to come (the grid says 1 behind).
    expect(rows.find((r) => r.participant_id === b.id)).toBeUndefined();
    const grid = await t.app.inject({
      method: 'GET',
      url: `/api/participant/${b.id}`,
      headers: { cookie },
    });
    expect(grid.json()).toMatchObject({ days_behind: 1, adherence_state: 'slightlybehind' });
  });
});
