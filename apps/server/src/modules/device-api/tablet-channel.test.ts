import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@pathway/contract';
import { deviceSignIns, deviceTokens, participants, participationProgress } from '../../db/schema.js';
import { ManualClock, createTestApp, signedInCookie, type TestApp } from '../../../test/harness.js';
import {
  makeDevice,
  makeEnrolledParticipant,
  makeParticipant,
  makeProgress,
  makeVideoSet,
  makeVideos,
} from '../../../test/programme-factories.js';
import { runAdherenceCheck } from '../adherence/check.js';
import { pruneExpiredDeviceTokens } from './service.js';

const clock = new ManualClock(new Date('2025-09-01T09:00:00Z'));
let t: TestApp;
let full: string;
let basic: string;

beforeAll(async () => {
  t = await createTestApp({ clock });
  full = (await signedInCookie(t.ctx, 'full access')).cookie;
  basic = (await signedInCookie(t.ctx, 'basic access')).cookie;
});
afterAll(() => t.close());

const signIn = (uuid: string, remoteAddress = '10.0.0.1') =>
  t.app.inject({ method: 'GET', url: `/uuid/${uuid}`, remoteAddress });

async function today(setId: number, participantId: number, token: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/videoset/today/${setId}/participant/${participantId}`,
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.statusCode).toBe(200);
  return res.json<{ week_number: number; day_number: number; fitness_video_set: unknown }[]>();
}

describe("call 4, today's session", () => {
  it("answers the current day's video alone at week 1 day 1, week 2 day 2 and the last day", async () => {
    const enrolled = await makeEnrolledParticipant(t.ctx.database.db, {
      weeks: 3,
      perWeek: 3,
      started_date: '2025-09-01',
    });
    const id = enrolled.participant.participant_id;
    const setId = enrolled.set.fitness_video_set_id;
    const token = (await signIn(enrolled.device.uuid)).json().auth_token as string;
    for (const [week, day] of [
      [1, 1],
      [2, 2],
      [3, 3],
    ] as const) {
      await t.ctx.database.db
        .update(participationProgress)
        .set({ current_week: week, current_day: day })
        .where(eq(participationProgress.participant_id, id));
      const answer = await today(setId, id, token);
      expect(answer).toHaveLength(1);
      expect(answer[0]).toMatchObject({
        week_number: week,
        day_number: day,
        fitness_video_set: { fitness_video_set_id: setId, number_of_weeks: 3, videos_in_week: 3 },
      });
    }
  });
});

describe('a position only points at a day with a video', () => {
  async function gappySet() {
    // Week 1 has days 1 and 3, week 2 day 2: week 1 day 2 and others have no video yet.
    const set = await makeVideoSet(t.ctx.database.db, { weeks: 2, perWeek: 3 });
    const videos = await makeVideos(t.ctx.database.db, set, [
      { week: 1, day: 1 },
      { week: 1, day: 3 },
      { week: 2, day: 2 },
    ]);
    const device = await makeDevice(t.ctx.database.db);
    const participant = await makeParticipant(t.ctx.database.db, { deviceId: device.authorized_device_id });
    const progress = await makeProgress(
      t.ctx.database.db,
      participant.participant_id,
      set.fitness_video_set_id,
      {
        started_date: '2025-09-01',
      },
    );
    return { set, videos, device, participant, progress };
  }

  const position = async (participantId: number) => {
    const [row] = await t.ctx.database.db
      .select()
      .from(participationProgress)
      .where(eq(participationProgress.participant_id, participantId));
    return { week: row!.current_week, day: row!.current_day };
  };

  it('refuses a move onto a day without a video, with a clear message, and changes nothing', async () => {
    const { participant } = await gappySet();
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/video/progress/forward/${participant.participant_id}`,
      headers: { cookie: full },
      payload: { week: 1, day: 2 },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(messages.progress.dayWithoutVideo(1, 2));
    expect(await position(participant.participant_id)).toEqual({ week: 1, day: 1 });
    const ok = await t.app.inject({
      method: 'POST',
      url: `/api/video/progress/forward/${participant.participant_id}`,
      headers: { cookie: full },
      payload: { week: 1, day: 3 },
    });
    expect(ok.statusCode).toBe(200);
  });

  it('refuses choosing a set whose week 1 day 1 has no video', async () => {
    const set = await makeVideoSet(t.ctx.database.db, { weeks: 1, perWeek: 2 });
    await makeVideos(t.ctx.database.db, set, [{ week: 1, day: 2 }]);
    const participant = await makeParticipant(t.ctx.database.db);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/participationprogress',
      headers: { cookie: full },
      payload: {
        participant_id: participant.participant_id,
        fitness_video_set_id: set.fitness_video_set_id,
        started_date: '2025-09-01',
        last_seen_date: '2025-09-01',
        percentage_progress: '0',
        current_week: 1,
        current_day: 1,
        video_stopped_at: '0',
      },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(messages.progress.firstDayWithoutVideo);
  });

  it('progress one day forward and the daily check skip days without a video', async () => {
    const a = await gappySet();
    const forward = await t.app.inject({
      method: 'PATCH',
      url: `/api/participant/${a.participant.participant_id}/progress`,
      headers: { cookie: basic },
    });
    expect(forward.statusCode).toBe(200);
    expect(await position(a.participant.participant_id)).toEqual({ week: 1, day: 3 });

    // The check moves a participant whose day is seen to the next day with a video, once unlocked.
    const b = await gappySet();
    const token = (await signIn(b.device.uuid)).json().auth_token as string;
    const view = await t.app.inject({
      method: 'POST',
      url: `/api/videoset/view/${b.set.fitness_video_set_id}/participant/${b.participant.participant_id}`,
      headers: { authorization: `Bearer ${token}` },
      payload: { day: '1', week: '1', videoIds: [String(b.videos[0]!.video_id)] },
    });
    expect(view.statusCode).toBe(200);
    clock.set(new Date('2025-09-03T05:00:00Z')); // day 3 of the programme: 3 days unlocked
    await runAdherenceCheck(t.ctx);
    expect(await position(b.participant.participant_id)).toEqual({ week: 1, day: 3 });
    expect(await today(b.set.fitness_video_set_id, b.participant.participant_id, token)).toHaveLength(1);
    clock.set(new Date('2025-09-01T09:00:00Z'));
  });

  it("deleting the video of someone's current day moves them back to the nearest earlier day with one, or is refused", async () => {
    const { participant, videos, set } = await gappySet();
    await t.ctx.database.db
      .update(participationProgress)
      .set({ current_week: 2, current_day: 2 })
      .where(eq(participationProgress.participant_id, participant.participant_id));
    const week2day2 = videos[2]!;
    const impact = await t.app.inject({
      method: 'GET',
      url: `/api/video/${week2day2.video_id}/deletion-impact`,
      headers: { cookie: basic },
    });
    expect(impact.json()).toEqual({ participants_on_day: 1, moved_to: { week: 1, day: 3 }, refused: false });
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/video/${week2day2.video_id}`,
      headers: { cookie: basic },
    });
    expect(del.statusCode).toBe(200);
    expect(await position(participant.participant_id)).toEqual({ week: 1, day: 3 });

    // Back on week 1 day 1, with no earlier day to go to: refused, nothing deleted.
    await t.ctx.database.db
      .update(participationProgress)
      .set({ current_week: 1, current_day: 1 })
      .where(eq(participationProgress.participant_id, participant.participant_id));
    const refused = await t.app.inject({
      method: 'DELETE',
      url: `/api/video/${videos[0]!.video_id}`,
      headers: { cookie: basic },
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(messages.video.deleteNoEarlierDay);
    const still = await t.app.inject({
      method: 'GET',
      url: `/api/videoset/${set.fitness_video_set_id}/videos`,
      headers: { cookie: basic },
    });
    expect(still.json()).toHaveLength(2);
  });
});

describe('a device id is not a secret', () => {
  it('a basic admin cannot reach a name through any device path', async () => {
    const victim = await makeEnrolledParticipant(t.ctx.database.db, {
      started_date: '2025-09-01',
      first_name: 'Gwenllian',
    });
    const uuid = victim.device.uuid;
    const id = victim.participant.participant_id;
    const asBasic = (method: 'GET' | 'PATCH' | 'POST', url: string, payload?: Record<string, unknown>) =>
      t.app.inject({ method, url, headers: { cookie: basic }, payload });

    // Lists and lookups give the assigned uuid masked only.
    const list = await asBasic('GET', '/api/authorizeddevices');
    const listed = list
      .json()
      .find(
        (d: { authorized_device_id: number }) =>
          d.authorized_device_id === victim.device.authorized_device_id,
      );
    expect(listed.uuid).toBe(`…${uuid.slice(-4)}`);
    expect(listed.unique_device_id).toBe(`…${uuid.slice(-4)}`);
    expect(list.body).not.toContain(uuid);
    const participantsPage = await asBasic('GET', '/api/participant?page=1&perPage=100');
    expect(participantsPage.body).not.toContain(uuid);
    expect((await asBasic('GET', `/api/participant/${id}`)).body).not.toContain(uuid);
    const lookup = await asBasic('GET', `/api/authorizeddevices/${uuid}`);
    expect(lookup.body).not.toContain(uuid);
    expect(lookup.body).not.toContain('Gwenllian');
    // The masked form is no device id.
    expect((await signIn(encodeURIComponent(listed.uuid))).statusCode).toBe(400);

    // A device of their own cannot be given to the participant, nor theirs detached.
    const own = await asBasic('POST', '/api/authorizeddevices', {
      name: 'Spare tablet',
      uuid: 'aaaabbbbccccdddd',
    });
    expect(own.statusCode).toBe(201);
    const move = await asBasic('PATCH', `/api/participant/${id}`, { unique_device_id: 'aaaabbbbccccdddd' });
    expect(move.statusCode).toBe(403);
    expect(move.json().message).toBe(messages.device.assignFullAccessOnly);
    expect((await asBasic('PATCH', `/api/participant/${id}`, { unique_device_id: 'empty' })).statusCode).toBe(
      403,
    );
    expect((await signIn('aaaabbbbccccdddd')).statusCode).toBe(404);
    // Nor can the assigned device's uuid be changed to one they know (it would cut the tablet off).
    const rename = await asBasic('PATCH', `/api/authorizeddevices/id/${victim.device.authorized_device_id}`, {
      uuid: '1111222233334444',
    });
    expect(rename.statusCode).toBe(403);
    // A masked uuid sent back with a new name changes the name only.
    const renamed = await asBasic(
      'PATCH',
      `/api/authorizeddevices/id/${victim.device.authorized_device_id}`,
      {
        name: 'Kitchen tablet',
        uuid: listed.uuid,
      },
    );
    expect(renamed.statusCode).toBe(200);
    expect(renamed.body).not.toContain(uuid);
    // Sign-in records are full access only.
    expect((await asBasic('GET', '/api/devicesignins')).statusCode).toBe(403);
    // They can still message the participant, by participant id.
    const message = await asBasic('POST', '/api/pushNotifications', {
      title: 'Hello',
      body: 'Time to exercise',
      participant_id: id,
    });
    expect(message.statusCode).toBe(200);
    // The tablet still signs in and its token works.
    expect((await signIn(uuid)).statusCode).toBe(200);
  });

  it('100 call-1 requests from a stranger do not end the tablet token', async () => {
    const enrolled = await makeEnrolledParticipant(t.ctx.database.db, { started_date: '2025-09-01' });
    const id = enrolled.participant.participant_id;
    const setId = enrolled.set.fitness_video_set_id;
    const real = (await signIn(enrolled.device.uuid, '10.1.1.1')).json().auth_token as string;
    expect(await today(setId, id, real)).toHaveLength(1);
    for (let i = 0; i < 100; i++) {
      expect((await signIn(enrolled.device.uuid, '203.0.113.9')).statusCode).toBe(200);
    }
    expect(await today(setId, id, real)).toHaveLength(1);
    // None of the stranger's calls moved the participant's address.
    const [row] = await t.ctx.database.db
      .select()
      .from(participants)
      .where(eq(participants.participant_id, id));
    expect(row!.last_ip_address).toBe('127.0.0.1');
    // Each was recorded, and the first from the new address while the token was in use flagged.
    const records = await t.ctx.database.db
      .select()
      .from(deviceSignIns)
      .where(and(eq(deviceSignIns.participant_id, id), eq(deviceSignIns.kind, 'token issued')));
    expect(records).toHaveLength(101);
    expect(records.filter((r) => r.flagged).length).toBe(100);
    const page = await t.app.inject({
      method: 'GET',
      url: `/api/devicesignins?authorized_device_id=${enrolled.device.authorized_device_id}&flagged=true`,
      headers: { cookie: full },
    });
    expect(page.statusCode).toBe(200);
    expect(page.json().total).toBe(100);
    expect(page.json().data[0]).toMatchObject({
      ip_address: '203.0.113.9',
      flagged: true,
      participant_id: id,
    });
    const devices = await t.app.inject({
      method: 'GET',
      url: '/api/authorizeddevices',
      headers: { cookie: full },
    });
    const listed = devices
      .json()
      .find(
        (d: { authorized_device_id: number }) =>
          d.authorized_device_id === enrolled.device.authorized_device_id,
      );
    expect(listed.flagged_sign_in_at).toBe(clock.now().toISOString());
  });

  it('tokens end on detach, and an unused one expires after the idle period (and is pruned)', async () => {
    const enrolled = await makeEnrolledParticipant(t.ctx.database.db, { started_date: '2025-09-01' });
    const id = enrolled.participant.participant_id;
    const setId = enrolled.set.fitness_video_set_id;
    const token = (await signIn(enrolled.device.uuid)).json().auth_token as string;
    clock.advance(89 * 86_400_000);
    expect(await today(setId, id, token)).toHaveLength(1); // used: the idle period starts again
    clock.advance(91 * 86_400_000);
    const expired = await t.app.inject({
      method: 'GET',
      url: `/api/videoset/today/${setId}/participant/${id}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(expired.statusCode).toBe(401);
    const removed = await pruneExpiredDeviceTokens(
      t.ctx.database.db,
      clock.now(),
      t.config.deviceTokenIdleDays,
    );
    expect(removed).toBeGreaterThanOrEqual(1);
    const left = await t.ctx.database.db
      .select()
      .from(deviceTokens)
      .where(eq(deviceTokens.authorized_device_id, enrolled.device.authorized_device_id));
    expect(left).toHaveLength(0);
    clock.set(new Date('2025-09-01T09:00:00Z'));
  });

  it('the participant shows when the tablet was last in contact, and the grid sorts by it', async () => {
    const earlier = await makeEnrolledParticipant(t.ctx.database.db, { started_date: '2025-09-01' });
    await makeEnrolledParticipant(t.ctx.database.db, { started_date: '2025-09-01' }); // never in contact
    const enrolled = await makeEnrolledParticipant(t.ctx.database.db, { started_date: '2025-09-01' });
    const id = enrolled.participant.participant_id;
    clock.set(new Date('2027-09-04T10:00:00Z'));
    await signIn(earlier.device.uuid);
    clock.set(new Date('2027-09-05T10:00:00Z'));
    await signIn(enrolled.device.uuid);
    const basic = (await signedInCookie(t.ctx, 'basic access')).cookie; // sessions idle out as the clock moves
    const one = await t.app.inject({
      method: 'GET',
      url: `/api/participant/${id}`,
      headers: { cookie: basic },
    });
    expect(one.json(), one.body).toMatchObject({ tablet_last_contact_at: '2027-09-05T10:00:00.000Z' });
    const sorted = await t.app.inject({
      method: 'GET',
      url: '/api/participant?page=1&perPage=2&sort=tablet_last_contact_at&order=desc',
      headers: { cookie: basic },
    });
    expect(sorted.statusCode).toBe(200);
    expect(sorted.json().data.map((p: { participant_id: number }) => p.participant_id)).toEqual([
      id,
      earlier.participant.participant_id,
    ]);
    const next = await t.app.inject({
      method: 'GET',
      url: `/api/participant?page=2&perPage=2&sort=tablet_last_contact_at&order=desc&after=${sorted.json().pagination.nextCursor}`,
      headers: { cookie: basic },
    });
    expect(next.statusCode).toBe(200);
    // The next page goes on from the cursor: older contacts, then those never in contact.
    const rest = next.json().data as { participant_id: number; tablet_last_contact_at: string | null }[];
    expect(rest.length).toBeGreaterThan(0);
    expect(rest.map((p) => p.participant_id)).not.toContain(id);
    expect(rest.every((p) => (p.tablet_last_contact_at ?? '') < '2027-09-04T10:00:00.000Z')).toBe(true);
    clock.set(new Date('2025-09-01T09:00:00Z'));
  });
});

describe('request logs', () => {
  it('never carry a device id: /uuid/{id} paths are logged with the id replaced', async () => {
    const enrolled = await makeEnrolledParticipant(t.ctx.database.db, { started_date: '2025-09-01' });
    const uuid = enrolled.device.uuid;
    await signIn(uuid);
    await t.app.inject({
      method: 'PATCH',
      url: `/uuid/${uuid}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
      payload: 'push_notification_id=fcm-log-check',
    });
    await t.app.inject({ method: 'GET', url: `/api/authorizeddevices/${uuid}`, headers: { cookie: full } });
    await t.app.inject({ method: 'GET', url: `/uuid/${uuid.toUpperCase()}` });
    const read = () =>
      readdirSync(t.config.logDir)
        .map((f) => readFileSync(path.join(t.config.logDir, f), 'utf8'))
        .join('');
    // Wait until the last request's line is written, then look at everything.
    await expect.poll(() => read().split('"url":"/uuid/[device id]"').length - 1).toBeGreaterThanOrEqual(3);
    const text = read();
    expect(text).toContain('"url":"/api/authorizeddevices/[device id]"');
    expect(text.toLowerCase()).not.toContain(uuid);
  });
});
