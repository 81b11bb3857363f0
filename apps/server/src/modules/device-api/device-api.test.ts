import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@pathway/contract';
import {
  authorizedDevices,
  dailyViews,
  participants,
  participationProgress,
  seenVideos,
  videos,
} from '../../db/schema.js';
import { daysBehindOf } from '../../../test/factories.js';
import { ManualClock, createTestApp, signedInCookie, type TestApp } from '../../../test/harness.js';
import {
  makeDevice,
  makeEnrolledParticipant,
  makeParticipant,
  makeVideos,
  randomDeviceUuid,
} from '../../../test/programme-factories.js';
import { runAdherenceCheck } from '../adherence/check.js';

const clock = new ManualClock(new Date('2025-09-01T09:00:00Z'));
let t: TestApp;
const staff = async () => (await signedInCookie(t.ctx, 'full access')).cookie;

beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());

const form = (fields: Record<string, string | string[]>) => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) for (const v of [value].flat()) params.append(key, v);
  return params.toString();
};
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/**
 * What the app's Dart models need of every answer: JSON in UTF-8 said so in the header (else the
 * app decodes Latin-1 and "Siân" arrives broken).
 */
function expectAppJson(res: { headers: Record<string, unknown>; rawPayload: Buffer }) {
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(() => JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(res.rawPayload))).not.toThrow();
}

/** The fields of a video the app's model reads, with the types it casts them to. */
function expectDartVideo(v: Record<string, unknown>) {
  expect(Number.isInteger(v.video_id)).toBe(true);
  expect(typeof v.title).toBe('string');
  expect(typeof v.file_location_path).toBe('string');
  expect(String(v.file_location_path)).toMatch(/^https?:\/\//);
  expect(typeof v.video_thumbnail_url).toBe('string');
  expect(Number.isInteger(v.day_number)).toBe(true);
  expect(Number.isInteger(v.week_number)).toBe(true);
}

/** The progress object: every field present, non-null, integers and strings where the app expects them. */
function expectDartProgress(p: Record<string, unknown>) {
  for (const key of [
    'fitness_participation_progress_id',
    'participant_id',
    'fitness_video_set_id',
    'current_week',
    'current_day',
    'percentage_progress',
  ]) {
    expect(Number.isInteger(p[key]), key).toBe(true);
  }
  for (const key of ['created_at', 'started_date', 'last_seen_date', 'video_stopped_at']) {
    expect(typeof p[key], key).toBe('string');
  }
  expect(p.current_week as number).toBeGreaterThanOrEqual(1);
  expect(p.percentage_progress as number).toBeGreaterThanOrEqual(0);
  expect(p.percentage_progress as number).toBeLessThanOrEqual(100);
}

async function tablet(options: { first_name?: string } = {}) {
  const enrolled = await makeEnrolledParticipant(t.ctx.database.db, {
    weeks: 2,
    perWeek: 3,
    started_date: '2025-09-01',
    first_name: options.first_name,
  });
  const res = await t.app.inject({
    method: 'GET',
    url: `/uuid/${enrolled.device.uuid}`,
    remoteAddress: '10.20.30.40',
  });
  expect(res.statusCode).toBe(200);
  expectAppJson(res);
  const body = res.json();
  const auth = { authorization: `Bearer ${body.auth_token}` };
  return {
    ...enrolled,
    body,
    auth,
    id: enrolled.participant.participant_id,
    setId: enrolled.set.fitness_video_set_id,
  };
}

describe("the tablet app's calls, in the order the app makes them", () => {
  it('registers, saves the push token, lists today, reads progress and summary, and reports a view', async () => {
    const { body, auth, id, setId, device, progress, videos } = await tablet({ first_name: 'Siân' });
    expect(body.first_name).toBe('Siân');

    // Call 1: every field the app reads, with the type it expects.
    expect(body.auth_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body).toMatchObject({
      participant_id: id,
      unique_device_id: device.uuid,
      purge_cache: false,
      fitness_video_sets: { fitness_video_set_id: setId, number_of_weeks: 2, videos_in_week: 3 },
      fitness_participation_progress: {
        fitness_participation_progress_id: progress.fitness_participation_progress_id,
        participant_id: id,
        fitness_video_set_id: setId,
        current_week: 1,
        current_day: 1,
        percentage_progress: 0,
        started_date: '2025-09-01',
        last_seen_date: '2025-09-01',
        video_stopped_at: '0',
      },
    });
    expect(typeof body.first_name).toBe('string');
    expect(typeof body.last_name).toBe('string');
    expect(body.first_name.length).toBeGreaterThan(0);
    expect(body.last_name.length).toBeGreaterThan(0);
    expect(typeof body.purge_cache).toBe('boolean');
    expectDartProgress(body.fitness_participation_progress);
    body.videos.forEach(expectDartVideo);
    for (const value of Object.values(body.fitness_participation_progress)) expect(value).not.toBeNull();
    expect(typeof body.fitness_participation_progress.created_at).toBe('string');
    expect(body.videos).toHaveLength(6);
    expect(body.videos[0]).toEqual({
      video_id: videos[0]!.video_id,
      title: videos[0]!.title,
      description: videos[0]!.description,
      file_location_path: `http://localhost/media/${videos[0]!.file_location_path}`,
      video_thumbnail_url: `http://localhost/media/${videos[0]!.video_thumbnail_url}`,
      day_number: 1,
      week_number: 1,
      video_length: '120',
      fitness_video_set_id: setId,
      created_at: videos[0]!.created_at.toISOString(),
    });
    const [afterCall1] = await t.ctx.database.db
      .select()
      .from(participants)
      .where(eq(participants.participant_id, id));
    // Anyone can make call 1 with a device id: it does not set the address (calls with a token do).
    expect(afterCall1!.last_ip_address).toBeNull();
    expect(afterCall1!.tablet_last_contact_at).toEqual(clock.now());

    // Call 2: form-encoded as the app sends it (charset included), no token.
    const push = await t.app.inject({
      method: 'PATCH',
      url: `/uuid/${device.uuid}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
      payload: form({ push_notification_id: 'fcm-token:APA91bExample_1' }),
    });
    expect(push.statusCode).toBe(200);
    expectAppJson(push);
    const [withToken] = await t.ctx.database.db
      .select()
      .from(participants)
      .where(eq(participants.participant_id, id));
    expect(withToken!.push_notification_id).toBe('fcm-token:APA91bExample_1');
    const [deviceRow] = await t.ctx.database.db
      .select()
      .from(authorizedDevices)
      .where(eq(authorizedDevices.uuid, device.uuid));
    expect(deviceRow!.push_notification_id).toBe('fcm-token:APA91bExample_1');

    // Staff purge the app's cache; the next start sees it and call 3 clears it (form-encoded).
    const purge = await t.app.inject({
      method: 'PATCH',
      url: `/api/participant/${id}`,
      headers: { cookie: await staff() },
      payload: { purge_cache: true },
    });
    expect(purge.statusCode).toBe(200);
    const restarted = await t.app.inject({ method: 'GET', url: `/uuid/${device.uuid}` });
    expect(restarted.json().purge_cache).toBe(true);
    const cleared = await t.app.inject({
      method: 'PATCH',
      url: `/api/participant/${id}`,
      headers: { ...auth, ...FORM },
      payload: form({ purge_cache: 'false' }),
    });
    expect(cleared.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/uuid/${device.uuid}` })).json().purge_cache).toBe(
      false,
    );

    // Call 4: day 1 only, each with its set nested.
    const today = await t.app.inject({
      method: 'GET',
      url: `/api/videoset/today/${setId}/participant/${id}`,
      headers: auth,
      remoteAddress: '10.20.30.40',
    });
    expect(today.statusCode).toBe(200);
    expectAppJson(today);
    expect(today.json()).toHaveLength(1);
    today.json().forEach(expectDartVideo);
    // A call with the token records the tablet's address.
    const [afterCall4] = await t.ctx.database.db
      .select()
      .from(participants)
      .where(eq(participants.participant_id, id));
    expect(afterCall4!.last_ip_address).toBe('10.20.30.40');
    expect(today.json()[0]).toMatchObject({
      video_id: videos[0]!.video_id,
      week_number: 1,
      day_number: 1,
      fitness_video_set: {
        fitness_video_set_id: setId,
        set_name: expect.any(String),
        number_of_weeks: 2,
        videos_in_week: 3,
      },
    });

    // Call 5.
    const prog = await t.app.inject({
      method: 'GET',
      url: `/api/participationprogress/${progress.fitness_participation_progress_id}`,
      headers: auth,
    });
    expect(prog.statusCode).toBe(200);
    expectAppJson(prog);
    expectDartProgress(prog.json());
    expect(prog.json()).toEqual(body.fitness_participation_progress);

    // Call 8: JSON with every value a string; twice, as the app retries.
    for (let i = 0; i < 2; i++) {
      const view = await t.app.inject({
        method: 'POST',
        url: `/api/videoset/view/${setId}/participant/${id}`,
        headers: auth,
        payload: { day: '1', week: '1', videoIds: [String(videos[0]!.video_id)] },
      });
      expect(view.statusCode).toBe(200);
    }
    const seen = await t.ctx.database.db.select().from(seenVideos).where(eq(seenVideos.participant_id, id));
    expect(seen).toHaveLength(1);
    const [day] = await t.ctx.database.db.select().from(dailyViews).where(eq(dailyViews.day, '2025-09-01'));
    expect(day!.views).toBe(1);

    // Call 6: the set's thumbnails by week (the video library's route, shared with the console).
    const thumbs = await t.app.inject({ method: 'GET', url: `/api/video/thumbs/${setId}`, headers: auth });
    expect(thumbs.statusCode).toBe(200);
    expectAppJson(thumbs);
    expect(Object.keys(thumbs.json())).toEqual(['1', '2']);
    expect(thumbs.json()['1'][0]).toEqual({
      day_number: 1,
      video_thumbnail_url: `http://localhost/media/${videos[0]!.video_thumbnail_url}`,
      video_id: videos[0]!.video_id,
    });

    // Call 7: the summary now counts it.
    const summary = await t.app.inject({
      method: 'GET',
      url: `/api/summary/${setId}/participant/${id}`,
      headers: auth,
    });
    expect(summary.statusCode).toBe(200);
    expect(summary.json()).toMatchObject({
      daysPassed: 0,
      shouldSeenByNow: 1,
      actuallySeen: 1,
      excerciseDaysInProgramme: 6,
      todalDaysInProgramme: 14,
    });
    expect(summary.json().seenVideos).toEqual([
      {
        video_id: videos[0]!.video_id,
        week_number: 1,
        day_number: 1,
        created_at: '2025-09-01T09:00:00.000Z',
      },
    ]);

    const after = await t.app.inject({
      method: 'GET',
      url: `/api/participationprogress/${progress.fitness_participation_progress_id}`,
      headers: auth,
    });
    expect(after.json()).toMatchObject({ percentage_progress: 16, last_seen_date: '2025-09-01' });
    expect(await daysBehindOf(t.ctx.database.db, id)).toBe(0);

    // The next morning the check unlocks day 2, and call 4 lists both.
    clock.set(new Date('2025-09-02T05:00:00Z'));
    await runAdherenceCheck(t.ctx);
    expect(
      (await t.app.inject({ method: 'GET', url: `/uuid/${device.uuid}` })).json()
        .fitness_participation_progress,
    ).toMatchObject({ current_week: 1, current_day: 2 });
    const nextDay = await t.app.inject({
      method: 'GET',
      url: `/api/videoset/today/${setId}/participant/${id}`,
      headers: auth,
    });
    // Today's session is day 2 alone: earlier days are not extra tiles on today's slot.
    expect(nextDay.json().map((v: { day_number: number }) => v.day_number)).toEqual([2]);
    clock.set(new Date('2025-09-01T09:00:00Z'));
  });

  it('accepts a form-encoded view report with repeated or bracketed keys', async () => {
    const { auth, id, setId, videos } = await tablet();
    const ids = [videos[0]!.video_id, videos[1]!.video_id].map(String);
    const repeated = await t.app.inject({
      method: 'POST',
      url: `/api/videoset/view/${setId}/participant/${id}`,
      headers: { ...auth, ...FORM },
      payload: form({ day: '1', week: '1', videoIds: ids }),
    });
    expect(repeated.statusCode).toBe(200);
    const bracketed = await t.app.inject({
      method: 'POST',
      url: `/api/videoset/view/${setId}/participant/${id}`,
      headers: { ...auth, ...FORM },
      payload: form({ day: '2', week: '1', 'videoIds[]': [String(videos[2]!.video_id)] }),
    });
    expect(bracketed.statusCode).toBe(200);
    expect(
      await t.ctx.database.db.select().from(seenVideos).where(eq(seenVideos.participant_id, id)),
    ).toHaveLength(3);
  });

  it('serves file URLs on PUBLIC_URL when it is set', async () => {
    const other = await createTestApp({ clock, env: { PUBLIC_URL: 'https://pathway.example.nhs.uk/' } });
    try {
      const { device, videos } = await makeEnrolledParticipant(other.ctx.database.db, {
        weeks: 1,
        perWeek: 1,
        started_date: '2025-09-01',
      });
      const res = await other.app.inject({ method: 'GET', url: `/uuid/${device.uuid}` });
      expect(res.json().videos[0].file_location_path).toBe(
        `https://pathway.example.nhs.uk/media/${videos[0]!.file_location_path}`,
      );
    } finally {
      await other.close();
    }
  });
});

describe("call 1's video list", () => {
  /** The titles and thumbnails call 1 answers for this tablet, in programme order. */
  const listed = async (uuid: string, host = 'localhost') => {
    const res = await t.app.inject({ method: 'GET', url: `/uuid/${uuid}`, headers: { host } });
    expect(res.statusCode).toBe(200);
    expectAppJson(res);
    return (
      res.json().videos as { title: string; video_thumbnail_url: string; file_location_path: string }[]
    ).map((v) => `${v.title} | ${v.video_thumbnail_url}`);
  };

  it('follows every change to the set, whoever makes it (SQL here, as another web instance would)', async () => {
    const a = await makeEnrolledParticipant(t.ctx.database.db, {
      weeks: 1,
      perWeek: 3,
      started_date: '2025-09-01',
    });
    const b = await makeEnrolledParticipant(t.ctx.database.db, {
      weeks: 1,
      perWeek: 3,
      started_date: '2025-09-01',
    });
    // Both tablets follow a's set: the second call is answered from the list the first one kept.
    await t.ctx.database.db
      .update(participationProgress)
      .set({ fitness_video_set_id: a.set.fitness_video_set_id })
      .where(eq(participationProgress.participant_id, b.participant.participant_id));
    const before = await listed(a.device.uuid);
    expect(before).toHaveLength(3);
    expect(await listed(b.device.uuid)).toEqual(before);

    // A title edited and a thumbnail arriving, straight in the database: no message to this process.
    await t.ctx.database.db
      .update(videos)
      .set({ title: 'Chair yoga' })
      .where(eq(videos.video_id, a.videos[0]!.video_id));
    expect((await listed(b.device.uuid))[0]).toBe(
      `Chair yoga | http://localhost/media/${a.videos[0]!.video_thumbnail_url}`,
    );
    await t.ctx.database.db
      .update(videos)
      .set({ video_thumbnail_url: 'processing....' })
      .where(eq(videos.video_id, a.videos[1]!.video_id));
    expect((await listed(a.device.uuid))[1]).toBe(`${a.videos[1]!.title} | processing....`);

    // A video removed, then one added: each shows on the next call.
    await t.ctx.database.db.delete(videos).where(eq(videos.video_id, a.videos[2]!.video_id));
    expect(await listed(a.device.uuid)).toHaveLength(2);
    await makeVideos(t.ctx.database.db, a.set, [{ week: 1, day: 3 }]);
    const after = await listed(b.device.uuid);
    expect(after).toHaveLength(3);
    expect(after[2]).toMatch(/^Week 1 day 3 \| http:\/\/localhost\/media\/thumbs\//);

    // A change to another set's videos leaves this list as it was.
    await t.ctx.database.db
      .update(videos)
      .set({ title: 'Elsewhere' })
      .where(eq(videos.video_id, b.videos[0]!.video_id));
    expect(await listed(a.device.uuid)).toEqual(after);
  });

  it("is written for each caller's own origin", async () => {
    const { device, videos: made } = await makeEnrolledParticipant(t.ctx.database.db, {
      weeks: 1,
      perWeek: 1,
      started_date: '2025-09-01',
    });
    for (const host of ['localhost', 'tablets.example.nhs.uk:8443', 'localhost']) {
      expect(await listed(device.uuid, host)).toEqual([
        `${made[0]!.title} | http://${host}/media/${made[0]!.video_thumbnail_url}`,
      ]);
    }
  });
});

describe('call 1 refuses', () => {
  it('an unknown, unassigned or programme-less device, and a malformed id, with a non-200', async () => {
    const unassigned = await makeDevice(t.ctx.database.db);
    const noProgrammeDevice = await makeDevice(t.ctx.database.db);
    await makeParticipant(t.ctx.database.db, { deviceId: noProgrammeDevice.authorized_device_id });
    const cases: [string, number, string][] = [
      [randomDeviceUuid(), 404, messages.deviceApi.notRegistered],
      [unassigned.uuid, 404, messages.deviceApi.notAssigned],
      [noProgrammeDevice.uuid, 404, messages.deviceApi.noProgramme],
      ['not-an-android-id', 400, messages.deviceApi.badDeviceId],
      ['11f00a29230cf03', 400, messages.deviceApi.badDeviceId],
    ];
    for (const [uuid, status, message] of cases) {
      const res = await t.app.inject({ method: 'GET', url: `/uuid/${uuid}` });
      expect(res.statusCode).toBe(status);
      expect(res.json().message).toBe(message);
    }
    const push = await t.app.inject({
      method: 'PATCH',
      url: `/uuid/${randomDeviceUuid()}`,
      headers: FORM,
      payload: 'push_notification_id=abc',
    });
    expect(push.statusCode).toBe(404);
    const empty = await t.app.inject({
      method: 'PATCH',
      url: `/uuid/${unassigned.uuid}`,
      headers: FORM,
      payload: 'push_notification_id=',
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe(messages.deviceApi.pushTokenEmpty);
  });

  it('matches the Android ID whatever its case', async () => {
    const { device } = await makeEnrolledParticipant(t.ctx.database.db, {
      weeks: 1,
      perWeek: 2,
      started_date: '2025-09-01',
    });
    const res = await t.app.inject({ method: 'GET', url: `/uuid/${device.uuid.toUpperCase()}` });
    expect(res.statusCode).toBe(200);
  });
});

describe('the bearer token', () => {
  it('is needed, and works only for its own participant', async () => {
    const a = await tablet();
    const b = await tablet();
    const noToken = await t.app.inject({ method: 'GET', url: `/api/summary/${a.setId}/participant/${a.id}` });
    expect(noToken.statusCode).toBe(401);
    expect(noToken.json().message).toBe(messages.deviceApi.notRegistered);
    const forged = await t.app.inject({
      method: 'GET',
      url: `/api/summary/${a.setId}/participant/${a.id}`,
      headers: { authorization: 'Bearer AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
    });
    expect(forged.statusCode).toBe(401);
    for (const url of [
      `/api/summary/${b.setId}/participant/${b.id}`,
      `/api/videoset/today/${b.setId}/participant/${b.id}`,
      `/api/participationprogress/${b.progress.fitness_participation_progress_id}`,
    ]) {
      const res = await t.app.inject({ method: 'GET', url, headers: a.auth });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(messages.deviceApi.otherParticipant);
    }
    const view = await t.app.inject({
      method: 'POST',
      url: `/api/videoset/view/${b.setId}/participant/${b.id}`,
      headers: a.auth,
      payload: { day: '1', week: '1', videoIds: [String(b.videos[0]!.video_id)] },
    });
    expect(view.statusCode).toBe(403);
    expect(
      await t.ctx.database.db.select().from(seenVideos).where(eq(seenVideos.participant_id, b.id)),
    ).toEqual([]);
  });

  it('stops working at once when the device is detached, and when it is deleted', async () => {
    const detached = await tablet();
    const url = `/api/summary/${detached.setId}/participant/${detached.id}`;
    expect((await t.app.inject({ method: 'GET', url, headers: detached.auth })).statusCode).toBe(200);
    const cookie = await staff();
    const detach = await t.app.inject({
      method: 'PATCH',
      url: `/api/participant/${detached.id}`,
      headers: { cookie },
      payload: { unique_device_id: 'empty' },
    });
    expect(detach.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url, headers: detached.auth })).statusCode).toBe(401);
    // Given back to the same participant, the old token stays dead: only a new call 1 helps.
    const reattach = await t.app.inject({
      method: 'PATCH',
      url: `/api/participant/${detached.id}`,
      headers: { cookie },
      payload: { unique_device_id: detached.device.uuid },
    });
    expect(reattach.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url, headers: detached.auth })).statusCode).toBe(401);

    const deleted = await tablet();
    const url2 = `/api/summary/${deleted.setId}/participant/${deleted.id}`;
    await t.app.inject({
      method: 'PATCH',
      url: `/api/participant/${deleted.id}`,
      headers: { cookie },
      payload: { unique_device_id: 'empty' },
    });
    const removal = await t.app.inject({
      method: 'DELETE',
      url: `/api/authorizeddevices/id/${deleted.device.authorized_device_id}`,
      headers: { cookie },
    });
    expect(removal.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: url2, headers: deleted.auth })).statusCode).toBe(401);
  });

  it('stays valid across later registrations of the same tablet', async () => {
    const first = await tablet();
    const again = await t.app.inject({ method: 'GET', url: `/uuid/${first.device.uuid}` });
    expect(again.json().auth_token).not.toBe(first.body.auth_token);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/summary/${first.setId}/participant/${first.id}`,
      headers: first.auth,
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('view reports', () => {
  it('refuses videos of another set, and empty or malformed lists, recording nothing', async () => {
    const a = await tablet();
    const b = await tablet();
    const cases: [object, string][] = [
      [{ day: '1', week: '1', videoIds: [String(b.videos[0]!.video_id)] }, messages.deviceApi.unknownVideos],
      [
        { day: '1', week: '1', videoIds: [String(a.videos[0]!.video_id), '99999999'] },
        messages.deviceApi.unknownVideos,
      ],
      [{ day: '1', week: '1', videoIds: [] }, messages.deviceApi.videoIdsEmpty],
      [{ day: '1', week: '1' }, messages.deviceApi.videoIdsEmpty],
      [{ day: '1', week: '1', videoIds: ['first'] }, 'Each video id must be a whole number'],
      [{ week: '1', videoIds: [String(a.videos[0]!.video_id)] }, messages.progress.dayEmpty],
    ];
    for (const [payload, message] of cases) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/videoset/view/${a.setId}/participant/${a.id}`,
        headers: a.auth,
        payload,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
    }
    expect(
      await t.ctx.database.db.select().from(seenVideos).where(eq(seenVideos.participant_id, a.id)),
    ).toEqual([]);
  });

  it('of an earlier set are kept as history without touching the current progress', async () => {
    const a = await tablet();
    const other = await makeEnrolledParticipant(t.ctx.database.db, {
      weeks: 1,
      perWeek: 1,
      started_date: '2025-09-01',
    });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/videoset/view/${other.set.fitness_video_set_id}/participant/${a.id}`,
      headers: a.auth,
      payload: { day: '1', week: '1', videoIds: [String(other.videos[0]!.video_id)] },
    });
    expect(res.statusCode).toBe(200);
    const [progress] = await t.ctx.database.db
      .select()
      .from(participationProgress)
      .where(eq(participationProgress.participant_id, a.id));
    expect(progress!.percentage_progress).toBe(0);
  });
});
