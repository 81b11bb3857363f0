import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@pathway/contract';
import { participationProgress, pushOutbox, seenVideos } from '../../db/schema.js';
import { daysBehindOf } from '../../../test/factories.js';
import { ManualClock, createTestApp, signedInCookie, type TestApp } from '../../../test/harness.js';
import {
  makeDevice,
  makeEnrolledParticipant,
  makeParticipant,
  makeProgress,
  makeVideoSet,
  makeVideos,
} from '../../../test/programme-factories.js';

const clock = new ManualClock(new Date('2025-06-10T09:00:00Z'));
let t: TestApp;
let staff: string;
let basic: string;

beforeAll(async () => {
  t = await createTestApp({ clock });
  staff = (await signedInCookie(t.ctx, 'full access')).cookie;
  basic = (await signedInCookie(t.ctx, 'basic access')).cookie;
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, cookie = staff) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload && { payload }) });

async function participantWithSet(
  position?: { week: number; day: number },
  shape = { weeks: 3, perWeek: 4 },
) {
  const set = await makeVideoSet(t.ctx.database.db, shape);
  await makeVideos(t.ctx.database.db, set);
  const device = await makeDevice(t.ctx.database.db);
  const participant = await makeParticipant(t.ctx.database.db, { deviceId: device.authorized_device_id });
  const progress = await makeProgress(
    t.ctx.database.db,
    participant.participant_id,
    set.fitness_video_set_id,
    {
      started_date: '2025-06-01',
      current_week: position?.week,
      current_day: position?.day,
    },
  );
  return { set, participant, progress, id: participant.participant_id };
}

describe('choosing a video set', () => {
  it('creates progress at week 1, day 1, 0 %, stopped at 0, started today', async () => {
    const set = await makeVideoSet(t.ctx.database.db, { weeks: 2, perWeek: 3 });
    // Week 1 day 1 must have a video: the tablet's "today" would be empty (tablet-channel.test.ts).
    await makeVideos(t.ctx.database.db, set, [{ week: 1, day: 1 }]);
    const p = await makeParticipant(t.ctx.database.db);
    expect((await call('GET', `/api/participationprogress/participant/${p.participant_id}`)).json()).toEqual(
      [],
    );

    const res = await call('POST', '/api/participationprogress', {
      participant_id: p.participant_id,
      fitness_video_set_id: set.fitness_video_set_id,
      // What the original console sent; the server decides these itself.
      started_date: '2020-01-01',
      percentage_progress: '55',
      current_week: 2,
      current_day: 3,
      video_stopped_at: '31',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      participant_id: p.participant_id,
      fitness_video_set_id: set.fitness_video_set_id,
      current_week: 1,
      current_day: 1,
      percentage_progress: '0',
      video_stopped_at: '0',
      started_date: '2025-06-10',
      last_seen_date: '2025-06-10',
    });
    const list = (
      await call('GET', `/api/participationprogress/participant/${p.participant_id}`, undefined, basic)
    ).json();
    expect(list).toHaveLength(1);
    expect(list[0].fitness_participation_progress_id).toBe(res.json().fitness_participation_progress_id);
    // On the first day one video is unlocked and none seen yet.
    expect(await daysBehindOf(t.ctx.database.db, p.participant_id)).toBe(1);
  });

  it('refuses a second set through POST, an unknown participant or set, and bad ids, changing nothing', async () => {
    const { set, id } = await participantWithSet();
    const again = await call('POST', '/api/participationprogress', {
      participant_id: id,
      fitness_video_set_id: set.fitness_video_set_id,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(messages.progress.alreadyAssigned);

    const lonely = await makeParticipant(t.ctx.database.db);
    const cases: [object, number, string][] = [
      [
        { participant_id: 999999, fitness_video_set_id: set.fitness_video_set_id },
        404,
        messages.participant.notFound,
      ],
      [
        { participant_id: lonely.participant_id, fitness_video_set_id: 999999 },
        404,
        messages.videoSet.notFound,
      ],
      [
        { participant_id: 'abc', fitness_video_set_id: set.fitness_video_set_id },
        400,
        'The id must be a whole number',
      ],
      [{ fitness_video_set_id: set.fitness_video_set_id }, 400, 'The id must be a whole number'],
    ];
    for (const [payload, status, message] of cases) {
      const res = await call('POST', '/api/participationprogress', payload);
      expect(res.statusCode).toBe(status);
      expect(res.json().message).toBe(message);
    }
    expect(
      (await call('GET', `/api/participationprogress/participant/${lonely.participant_id}`)).json(),
    ).toEqual([]);
    expect((await call('GET', '/api/participationprogress/participant/999999')).statusCode).toBe(404);
  });

  it('is for signed-in staff only', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/participationprogress/participant/1' });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe(messages.session.required);
  });
});

describe('choosing a different set', () => {
  it('resets to week 1, day 1 and forgets earlier views of the new set', async () => {
    const { progress, id, set } = await participantWithSet({ week: 2, day: 3 });
    const other = await makeVideoSet(t.ctx.database.db, { weeks: 1, perWeek: 2 });
    const otherVideos = await makeVideos(t.ctx.database.db, other);
    const setVideos = await t.ctx.database.db.query.videos.findMany({
      where: (v, { eq: e }) => e(v.fitness_video_set_id, set.fitness_video_set_id),
    });
    await t.ctx.database.db.insert(seenVideos).values([
      {
        participant_id: id,
        video_id: otherVideos[0]!.video_id,
        fitness_video_set_id: other.fitness_video_set_id,
        week_number: 1,
        day_number: 1,
      },
      {
        participant_id: id,
        video_id: setVideos[0]!.video_id,
        fitness_video_set_id: set.fitness_video_set_id,
        week_number: 1,
        day_number: 1,
      },
    ]);

    const res = await call(
      'PATCH',
      `/api/participationprogress/${progress.fitness_participation_progress_id}`,
      {
        fitness_video_set_id: other.fitness_video_set_id,
        current_week: 1,
        current_day: 1,
        percentage_progress: '0',
      },
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      fitness_video_set_id: other.fitness_video_set_id,
      current_week: 1,
      current_day: 1,
      percentage_progress: '0',
      video_stopped_at: '0',
      started_date: '2025-06-10',
    });
    const seen = await t.ctx.database.db.select().from(seenVideos).where(eq(seenVideos.participant_id, id));
    expect(seen.map((s) => s.fitness_video_set_id)).toEqual([set.fitness_video_set_id]);
  });

  it('keeps everything when the same set is sent, and stores video_stopped_at', async () => {
    const { progress, set } = await participantWithSet({ week: 2, day: 2 });
    const res = await call(
      'PATCH',
      `/api/participationprogress/${progress.fitness_participation_progress_id}`,
      {
        fitness_video_set_id: set.fitness_video_set_id,
        video_stopped_at: '42.5',
      },
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      current_week: 2,
      current_day: 2,
      video_stopped_at: '42.5',
      started_date: '2025-06-01',
    });
    const bad = await call(
      'PATCH',
      `/api/participationprogress/${progress.fitness_participation_progress_id}`,
      { video_stopped_at: 'soon' },
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(messages.progress.videoStoppedAtInvalid);
  });

  it('applies the move rules to a week or day sent with the same set', async () => {
    const { progress } = await participantWithSet({ week: 2, day: 3 });
    const url = `/api/participationprogress/${progress.fitness_participation_progress_id}`;
    const back = await call('PATCH', url, { current_week: 1, current_day: 1 });
    expect(back.statusCode).toBe(400);
    expect(back.json().message).toBe(messages.progress.cannotMoveBack);
    expect((await call('PATCH', url, { current_day: 1 })).json()).toMatchObject({
      current_week: 2,
      current_day: 1,
    });
    expect((await call('PATCH', url, { current_week: 3, current_day: 4 })).json()).toMatchObject({
      current_week: 3,
      current_day: 4,
    });
    expect((await call('PATCH', '/api/participationprogress/999999', { current_day: 1 })).statusCode).toBe(
      404,
    );
    const unknownSet = await call('PATCH', url, { fitness_video_set_id: 999999 });
    expect(unknownSet.statusCode).toBe(404);
    expect(unknownSet.json().message).toBe(messages.videoSet.notFound);
  });
});

describe('move to week/day', () => {
  const move = (direction: 'forward' | 'backward', id: number, body: object) =>
    call('POST', `/api/video/progress/${direction}/${id}`, body);

  it('moves back to an earlier day of the current week', async () => {
    const { id } = await participantWithSet({ week: 2, day: 3 });
    const res = await move('backward', id, { week: 2, day: 1 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ current_week: 2, current_day: 1 });
  });

  it('moves forward to a later day or week, as text or numbers', async () => {
    const { id } = await participantWithSet({ week: 1, day: 2 });
    expect((await move('forward', id, { week: 1, day: 4 })).json()).toMatchObject({
      current_week: 1,
      current_day: 4,
    });
    expect((await move('forward', id, { week: '3', day: '1' })).json()).toMatchObject({
      current_week: 3,
      current_day: 1,
    });
  });

  it("refuses a move to an earlier week with the spec's message, and leaves the position", async () => {
    const { id } = await participantWithSet({ week: 2, day: 3 });
    for (const [direction, body] of [
      ['forward', { week: 1, day: 4 }],
      ['backward', { week: 1, day: 1 }],
      ['backward', { week: 3, day: 1 }],
      ['backward', { week: 2, day: 4 }],
      ['forward', { week: 2, day: 1 }],
    ] as const) {
      const res = await move(direction, id, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(messages.progress.cannotMoveBack);
    }
    const [row] = await t.ctx.database.db
      .select()
      .from(participationProgress)
      .where(eq(participationProgress.participant_id, id));
    expect([row!.current_week, row!.current_day]).toEqual([2, 3]);
  });

  it('keeps week and day within the set', async () => {
    const { id } = await participantWithSet({ week: 2, day: 1 });
    const cases: [object, string][] = [
      [{ week: 4, day: 1 }, messages.progress.weekRange(2, 3)],
      [{ week: 3, day: 5 }, messages.progress.dayRange(4)],
      [{ week: 3, day: 0 }, messages.progress.dayRange(4)],
      [{ day: 1 }, messages.progress.weekEmpty],
      [{ week: 3 }, messages.progress.dayEmpty],
      [{ week: '', day: 1 }, messages.progress.weekEmpty],
      [{ week: 2.5, day: 1 }, 'Must be a whole number'],
      [{ week: 'three', day: 1 }, 'Must be a whole number'],
    ];
    for (const [body, message] of cases) {
      const res = await move('forward', id, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
    }
  });

  it('needs progress and an existing participant', async () => {
    const lonely = await makeParticipant(t.ctx.database.db);
    const none = await move('forward', lonely.participant_id, { week: 1, day: 2 });
    expect(none.statusCode).toBe(409);
    expect(none.json().message).toBe(messages.progress.none);
    expect((await move('forward', 999999, { week: 1, day: 2 })).statusCode).toBe(404);
  });
});

describe('progress one day forward', () => {
  it('moves to the next day, across a week boundary, and queues the default message for delivery', async () => {
    const { id } = await participantWithSet({ week: 1, day: 4 });
    const res = await call('PATCH', `/api/participant/${id}/progress`, {}, basic);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: messages.progress.participantNotified });
    const [row] = await t.ctx.database.db
      .select()
      .from(participationProgress)
      .where(eq(participationProgress.participant_id, id));
    expect([row!.current_week, row!.current_day]).toEqual([2, 1]);
    const pushes = await t.ctx.database.db.select().from(pushOutbox).where(eq(pushOutbox.participant_id, id));
    expect(pushes).toHaveLength(1);
    expect(pushes[0]).toMatchObject({
      title: messages.reminders.newVideoTitle,
      body: messages.reminders.newVideoBody,
      kind: 'progress-forward',
      status: 'queued',
    });
    const jobs = await t.ctx.jobs.boss.getQueueSize('push-deliver');
    expect(jobs).toBeGreaterThanOrEqual(1);
  });

  it('refuses without a device, without progress, and on the last day, notifying nobody', async () => {
    const noDevice = await makeParticipant(t.ctx.database.db);
    const set = await makeVideoSet(t.ctx.database.db, { weeks: 1, perWeek: 2 });
    await makeProgress(t.ctx.database.db, noDevice.participant_id, set.fitness_video_set_id, {
      started_date: '2025-06-01',
    });
    const device = await makeDevice(t.ctx.database.db);
    const noProgress = await makeParticipant(t.ctx.database.db, { deviceId: device.authorized_device_id });
    const { id: lastDay } = await participantWithSet({ week: 3, day: 4 });
    const cases: [number, number, string][] = [
      [noDevice.participant_id, 409, messages.progress.noDevice],
      [noProgress.participant_id, 409, messages.progress.none],
      [lastDay, 409, messages.progress.lastDay],
      [999999, 404, messages.participant.notFound],
    ];
    for (const [id, status, message] of cases) {
      const res = await call('PATCH', `/api/participant/${id}/progress`, {});
      expect(res.statusCode).toBe(status);
      expect(res.json().message).toBe(message);
      expect(
        await t.ctx.database.db.select().from(pushOutbox).where(eq(pushOutbox.participant_id, id)),
      ).toEqual([]);
    }
  });
});

describe('progress summary', () => {
  it('counts days, due and seen videos by the programme rules', async () => {
    // Started 2025-06-01, today 2025-06-10: 9 days passed; 3 weeks of 4 videos.
    const { set, participant, videos } = await makeEnrolledParticipant(t.ctx.database.db, {
      weeks: 3,
      perWeek: 4,
      started_date: '2025-06-01',
    });
    const id = participant.participant_id;
    const seen = [videos[0]!, videos[1]!, videos[4]!];
    for (const [i, v] of seen.entries()) {
      await t.ctx.database.db.insert(seenVideos).values({
        participant_id: id,
        video_id: v.video_id,
        fitness_video_set_id: set.fitness_video_set_id,
        week_number: v.week_number,
        day_number: v.day_number,
        created_at: new Date(Date.UTC(2025, 5, 2 + i, 17)),
      });
    }
    const res = await call(
      'GET',
      `/api/participationprogress/summary/${set.fitness_video_set_id}/participant/${id}`,
      undefined,
      basic,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      daysPassed: 9,
      todalDaysInProgramme: 21,
      excerciseDaysInProgramme: 12,
      averagePerDay: 0.3,
      // Week 1 unlocked its 4; day 9 is the third day of week 2: 3 more.
      shouldSeenByNow: 7,
      actuallySeen: 3,
      seenVideos: [
        {
          video_id: videos[0]!.video_id,
          week_number: 1,
          day_number: 1,
          created_at: '2025-06-02T17:00:00.000Z',
        },
        {
          video_id: videos[1]!.video_id,
          week_number: 1,
          day_number: 2,
          created_at: '2025-06-03T17:00:00.000Z',
        },
        {
          video_id: videos[4]!.video_id,
          week_number: 2,
          day_number: 1,
          created_at: '2025-06-04T17:00:00.000Z',
        },
      ],
    });
  });

  it('answers 404 for another set or a participant without progress', async () => {
    const { set, id } = await participantWithSet();
    const other = await makeVideoSet(t.ctx.database.db);
    const wrong = await call(
      'GET',
      `/api/participationprogress/summary/${other.fitness_video_set_id}/participant/${id}`,
    );
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json().message).toBe(messages.progress.notInSet);
    const lonely = await makeParticipant(t.ctx.database.db);
    const none = await call(
      'GET',
      `/api/participationprogress/summary/${set.fitness_video_set_id}/participant/${lonely.participant_id}`,
    );
    expect(none.json().message).toBe(messages.progress.none);
    const seenForOther = await t.ctx.database.db
      .select()
      .from(seenVideos)
      .where(
        and(
          eq(seenVideos.participant_id, id),
          eq(seenVideos.fitness_video_set_id, other.fitness_video_set_id),
        ),
      );
    expect(seenForOther).toEqual([]);
  });
});
