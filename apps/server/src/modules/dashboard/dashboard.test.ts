import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { averageVideosPerDay, watchedVideosChart } from '@pathway/contract';
import { setDaysBehind } from '../../../test/factories.js';
import {
  ManualClock,
  createTestApp,
  signedInCookie,
  type TestApp,
  asInstance,
} from '../../../test/harness.js';
import { makeEnrolledParticipant, makeParticipant, makeVideoSet } from '../../../test/programme-factories.js';
import { recordViews } from '../progress/views.js';

const clock = new ManualClock(new Date('2025-05-01T12:00:00Z'));
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());

const dashboard = async () => {
  const { cookie } = await signedInCookie(t.ctx, 'basic access');
  const res = await t.app.inject({ method: 'GET', url: '/api/dashboard', headers: { cookie } });
  expect(res.statusCode).toBe(200);
  return res.json();
};

describe('GET /api/dashboard', () => {
  it('answers zeros and no days on an empty programme', async () => {
    expect(await dashboard()).toEqual({
      participantsCount: { counted: 0 },
      videoSetCount: { counted: 0 },
      yesterdayWatched: [{ created_count: 0 }],
      seenCount: [],
      participantsProgress: { onTrack: 0, slightlyBehind: 0, behind: 0 },
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/dashboard' })).statusCode).toBe(401);
  });

  it('counts participants, sets, views per programme day and adherence classes on known data', async () => {
    const a = await makeEnrolledParticipant(t.ctx.database.db, {
      weeks: 2,
      perWeek: 5,
      started_date: '2025-04-20',
    });
    const b = await makeEnrolledParticipant(t.ctx.database.db, {
      weeks: 1,
      perWeek: 3,
      started_date: '2025-04-20',
    });
    const c = await makeEnrolledParticipant(t.ctx.database.db, { set: a.set, started_date: '2025-04-20' });
    await makeParticipant(t.ctx.database.db); // no programme: counted as a participant, not in the progress row
    await makeVideoSet(t.ctx.database.db); // a set nobody follows

    const view = async (at: string, who: typeof a, videoIndexes: number[]) => {
      clock.set(new Date(at));
      const videos = who === c ? a.videos : who.videos;
      await asInstance(() =>
        recordViews(
          t.ctx,
          who.participant.participant_id,
          who.set.fitness_video_set_id,
          videoIndexes.map((i) => videos[i]!.video_id),
        ),
      );
    };
    await view('2025-05-01T08:00:00Z', a, [0, 1]);
    await view('2025-05-01T18:00:00Z', b, [0]);
    await view('2025-05-04T09:00:00Z', c, [0]);
    // 00:30 on 9 May in London (BST): counts on the 9th, not the 8th.
    await view('2025-05-08T23:30:00Z', a, [2]);
    await view('2025-05-09T10:00:00Z', b, [1]);
    // Reported again: counted once.
    await view('2025-05-09T11:00:00Z', b, [1]);
    clock.set(new Date('2025-05-10T07:00:00Z'));
    for (const [p, behind] of [
      [a, 0],
      [b, 2],
      [c, 5],
    ] as const) {
      await setDaysBehind(t.ctx.database.db, p.participant.participant_id, behind);
    }

    const data = await dashboard();
    expect(data).toEqual({
      participantsCount: { counted: 4 },
      videoSetCount: { counted: 3 },
      yesterdayWatched: [{ created_count: 2 }],
      // Only the chart's window (issue 33): the 8 days ending at 9 May, so 1 May's 3 are left out.
      seenCount: [
        { created_at: '2025-05-04', created_count: 1 },
        { created_at: '2025-05-09', created_count: 2 },
      ],
      participantsProgress: { onTrack: 1, slightlyBehind: 1, behind: 1 },
    });
    expect(JSON.stringify(data)).not.toMatch(/First|Last|first_name|Test Street/);

    // What the page shows: the average over the days with data it was given (those of the window),
    // and the chart's zero-filled window, the same as when every day was sent.
    expect(averageVideosPerDay(data.seenCount)).toBe(1.5);
    expect(watchedVideosChart(data.seenCount)).toEqual([
      { created_at: '2025-05-02', created_count: 0 },
      { created_at: '2025-05-03', created_count: 0 },
      { created_at: '2025-05-04', created_count: 1 },
      { created_at: '2025-05-05', created_count: 0 },
      { created_at: '2025-05-06', created_count: 0 },
      { created_at: '2025-05-07', created_count: 0 },
      { created_at: '2025-05-08', created_count: 0 },
      { created_at: '2025-05-09', created_count: 2 },
    ]);
  });
});
