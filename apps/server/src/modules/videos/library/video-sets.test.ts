import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@pathway/contract';
import { participants, participationProgress } from '../../../db/schema.js';
import { daysBehindOf, firstSite, setDaysBehind } from '../../../../test/factories.js';
import { createTestApp, signedInCookie, type TestApp } from '../../../../test/harness.js';

let t: TestApp;
let basic: string;

beforeAll(async () => {
  t = await createTestApp();
  basic = (await signedInCookie(t.ctx, 'basic access')).cookie;
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, cookie = basic) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload && { payload }) });

async function addSet(body: object = { set_name: 'Strength', number_of_weeks: 4, videos_in_week: 3 }) {
  const res = await call('POST', '/api/videoset', body);
  expect(res.statusCode).toBe(201);
  return res.json<{ fitness_video_set_id: number; set_name: string; created_at: string }>();
}

describe('video sets', () => {
  it('need a signed-in admin; basic access is enough', async () => {
    for (const [method, url] of [
      ['GET', '/api/videoset'],
      ['POST', '/api/videoset'],
      ['GET', '/api/videoset/1'],
      ['PATCH', '/api/videoset/1'],
      ['DELETE', '/api/videoset/1'],
    ] as const) {
      const res = await t.app.inject({
        method,
        url,
        payload: method === 'POST' || method === 'PATCH' ? {} : undefined,
      });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
    expect((await call('GET', '/api/videoset')).statusCode).toBe(200);
  });

  it('adds a set and lists it with the spec fields only', async () => {
    const created = await addSet({ set_name: '  Chair exercises  ', number_of_weeks: 6, videos_in_week: 5 });
    expect(created).toMatchObject({ set_name: 'Chair exercises', number_of_weeks: 6, videos_in_week: 5 });
    expect(created.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const list = (await call('GET', '/api/videoset')).json();
    const listed = list.find(
      (s: { fitness_video_set_id: number }) => s.fitness_video_set_id === created.fitness_video_set_id,
    );
    expect(Object.keys(listed).sort()).toEqual([
      'created_at',
      'fitness_video_set_id',
      'number_of_weeks',
      'organisation_id',
      'set_name',
      'shared',
      'videos_in_week',
    ]);
    expect((await call('GET', `/api/videoset/${created.fitness_video_set_id}`)).json()).toEqual(listed);
  });

  it('accepts numbers typed as text, as a form sends them', async () => {
    const created = await addSet({ set_name: 'Balance', number_of_weeks: '12', videos_in_week: '7' });
    expect(created).toMatchObject({ number_of_weeks: 12, videos_in_week: 7 });
  });

  it('refuses invalid sets with the spec messages and stores nothing', async () => {
    const before = (await call('GET', '/api/videoset')).json().length;
    const cases: [object, string][] = [
      [{ number_of_weeks: 4, videos_in_week: 3 }, messages.videoSet.nameEmpty],
      [{ set_name: '   ', number_of_weeks: 4, videos_in_week: 3 }, messages.videoSet.nameEmpty],
      [{ set_name: 'A', number_of_weeks: 4, videos_in_week: 3 }, messages.videoSet.nameShort],
      [{ set_name: 'Valid', videos_in_week: 3 }, messages.videoSet.weeksEmpty],
      [{ set_name: 'Valid', number_of_weeks: '', videos_in_week: 3 }, messages.videoSet.weeksEmpty],
      [{ set_name: 'Valid', number_of_weeks: 0, videos_in_week: 3 }, messages.videoSet.weeksInvalid],
      [{ set_name: 'Valid', number_of_weeks: -2, videos_in_week: 3 }, messages.videoSet.weeksInvalid],
      [{ set_name: 'Valid', number_of_weeks: 2.5, videos_in_week: 3 }, messages.videoSet.weeksInvalid],
      [{ set_name: 'Valid', number_of_weeks: 'four', videos_in_week: 3 }, messages.videoSet.weeksInvalid],
      [{ set_name: 'Valid', number_of_weeks: 521, videos_in_week: 3 }, messages.videoSet.weeksTooMany],
      [{ set_name: 'Valid', number_of_weeks: 4 }, messages.videoSet.videosInWeekEmpty],
      [{ set_name: 'Valid', number_of_weeks: 4, videos_in_week: 0 }, messages.videoSet.videosInWeekInvalid],
      [{ set_name: 'Valid', number_of_weeks: 4, videos_in_week: 8 }, messages.videoSet.videosInWeekInvalid],
      [
        { set_name: 'Valid', number_of_weeks: 4, videos_in_week: '1.5' },
        messages.videoSet.videosInWeekInvalid,
      ],
    ];
    for (const [payload, message] of cases) {
      const res = await call('POST', '/api/videoset', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message, JSON.stringify(payload)).toBe(message);
    }
    expect((await call('GET', '/api/videoset')).json().length).toBe(before);
  });

  it('renames a set and changes nothing else', async () => {
    const set = await addSet();
    const res = await call('PATCH', `/api/videoset/${set.fitness_video_set_id}`, {
      set_name: 'Renamed set',
      number_of_weeks: 99,
      videos_in_week: 1,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ set_name: 'Renamed set', number_of_weeks: 4, videos_in_week: 3 });
    const bad = await call('PATCH', `/api/videoset/${set.fitness_video_set_id}`, { set_name: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(messages.videoSet.nameShort);
    expect((await call('PATCH', '/api/videoset/999999', { set_name: 'Nobody' })).json().message).toBe(
      messages.videoSet.notFound,
    );
  });

  it('answers 404 for an unknown set and 400 for an id that is not a whole number', async () => {
    const missing = await call('GET', '/api/videoset/999999');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(messages.videoSet.notFound);
    for (const id of ['abc', '1.5', '-1', '0', '99999999999']) {
      expect((await call('GET', `/api/videoset/${id}`)).statusCode, id).toBe(400);
    }
    expect((await call('DELETE', '/api/videoset/999999')).statusCode).toBe(404);
  });

  it('deletes a set with the progress of its participants, and says beforehand what will go', async () => {
    const set = await addSet();
    const other = await addSet({ set_name: 'Another', number_of_weeks: 2, videos_in_week: 2 });
    const [person] = await t.ctx.database.db
      .insert(participants)
      .values({
        first_name: 'Pat',
        last_name: 'Example',
        date_of_birth: '1950-01-01',
        phone_number: '+441234567890',
        address: '1 Street',
        ...(await firstSite(t.ctx.database.db)),
      })
      .returning();
    await setDaysBehind(t.ctx.database.db, person!.participant_id, 4);
    const [bystander] = await t.ctx.database.db
      .insert(participants)
      .values({
        first_name: 'Sam',
        last_name: 'Other',
        date_of_birth: '1952-01-01',
        phone_number: '+441234567891',
        address: '2 Street',
        ...(await firstSite(t.ctx.database.db)),
      })
      .returning();
    await setDaysBehind(t.ctx.database.db, bystander!.participant_id, 2);
    await t.ctx.database.db.insert(participationProgress).values([
      {
        participant_id: person!.participant_id,
        fitness_video_set_id: set.fitness_video_set_id,
        started_date: '2024-01-01',
        last_seen_date: '2024-01-02',
      },
      {
        participant_id: bystander!.participant_id,
        fitness_video_set_id: other.fitness_video_set_id,
        started_date: '2024-01-01',
        last_seen_date: '2024-01-02',
      },
    ]);

    const impact = await call('GET', `/api/videoset/${set.fitness_video_set_id}/deletion-impact`);
    expect(impact.json()).toEqual({ videos: 0, participants: 1, files_deleted: 0, files_kept: 0 });

    const res = await call('DELETE', `/api/videoset/${set.fitness_video_set_id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      message: messages.videoSet.deleted,
      videos: 0,
      participants: 1,
      files_deleted: 0,
      files_kept: 0,
    });
    expect((await call('GET', `/api/videoset/${set.fitness_video_set_id}`)).statusCode).toBe(404);

    const progress = await t.ctx.database.db.select().from(participationProgress);
    expect(progress.map((p) => p.participant_id)).toEqual([bystander!.participant_id]);
    expect(await daysBehindOf(t.ctx.database.db, person!.participant_id)).toBe(0);
    expect(await daysBehindOf(t.ctx.database.db, bystander!.participant_id)).toBe(2);
  });
});
