import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THUMBNAIL_PROCESSING, messages } from '@pathway/contract';
import {
  authorizedDevices,
  deviceTokens,
  participants,
  participationProgress,
  seenVideos,
  videoSets,
  videoUploads,
  videos,
} from '../../../db/schema.js';
import { hashDeviceToken } from '../../../plugins/access.js';
import { firstSite } from '../../../../test/factories.js';
import { createTestApp, signedInCookie, type TestApp } from '../../../../test/harness.js';
import { eventually, testVideo, uploadThroughTus } from '../../../../test/media-helpers.js';
import { makeThumbnail } from '../media/thumbnail-job.js';

let t: TestApp;
let staff: string;
const ORIGIN = 'http://localhost';

beforeAll(async () => {
  t = await createTestApp({ workers: true });
  staff = (await signedInCookie(t.ctx, 'basic access')).cookie;
});
afterAll(() => t.close());

const call = (
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
  headers: Record<string, string> = { cookie: staff },
) => t.app.inject({ method, url, headers, ...(payload && { payload }) });

async function addSet(weeks = 2, perWeek = 3, name = 'Mobility') {
  const res = await call('POST', '/api/videoset', {
    set_name: name,
    number_of_weeks: weeks,
    videos_in_week: perWeek,
  });
  return res.json().fitness_video_set_id as number;
}

async function upload(bytes = testVideo()) {
  const res = await uploadThroughTus(t.app, staff, bytes);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.location!;
}

async function addVideo(setId: number, week: number, day: number, location?: string) {
  const res = await call('POST', '/api/video', {
    title: `Week ${week} day ${day}`,
    description: 'Sit tall, feet flat, arms by your side.',
    file_location_path: location ?? (await upload()),
    file_size: 1,
    video_thumbnail_url: 'https://attacker.example/x.jpg',
    video_length: '999',
    fitness_video_set_id: setId,
    week_number: week,
    day_number: day,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const storedKey = (url: string) => new URL(url).pathname.replace(/^\/media\//, '');

async function thumbnailOf(videoId: number): Promise<string> {
  return eventually(async () => {
    const [row] = await t.ctx.database.db.select().from(videos).where(eq(videos.video_id, videoId));
    return row && row.video_thumbnail_url !== THUMBNAIL_PROCESSING ? row.video_thumbnail_url : undefined;
  });
}

function pictureSize(bytes: Buffer): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pathway-pic-'));
  const file = path.join(dir, 'p.jpg');
  writeFileSync(file, bytes);
  return execFileSync('ffprobe', [
    '-v',
    'error',
    '-select_streams',
    'v:0',
    '-show_entries',
    'stream=width,height',
    '-of',
    'csv=p=0:s=x',
    file,
  ])
    .toString()
    .trim();
}

describe('videos', () => {
  it('need a signed-in admin', async () => {
    const none = {};
    expect((await call('POST', '/api/video', {}, none)).statusCode).toBe(401);
    expect((await call('PATCH', '/api/video/1', {}, none)).statusCode).toBe(401);
    expect((await call('DELETE', '/api/video/1', undefined, none)).statusCode).toBe(401);
    expect((await call('GET', '/api/video/1', undefined, none)).statusCode).toBe(401);
    expect((await call('GET', '/api/videoset/1/videos', undefined, none)).statusCode).toBe(401);
    expect((await call('GET', '/api/video/thumbs/1', undefined, none)).statusCode).toBe(401);
    expect((await call('GET', '/thumbs?videoId=1', undefined, none)).statusCode).toBe(401);
    expect((await call('GET', '/api/video/upload-settings', undefined, none)).statusCode).toBe(401);
  });

  it('saves an uploaded video; the server decides size, thumbnail and length, and the thumbnail appears by itself', async () => {
    const setId = await addSet();
    const bytes = testVideo();
    const location = await upload(bytes);
    const created = await addVideo(setId, 1, 2, location);
    expect(created).toMatchObject({
      fitness_video_set_id: setId,
      set_name: 'Mobility',
      title: 'Week 1 day 2',
      file_location_path: location,
      file_size: bytes.length,
      video_thumbnail_url: THUMBNAIL_PROCESSING,
      poster_url: null,
      video_length: '0',
      week_number: 1,
      day_number: 2,
    });
    expect(location).toMatch(new RegExp(`^${ORIGIN}/media/uploads/[0-9a-f]{32}$`));

    await thumbnailOf(created.video_id);
    const shown = (await call('GET', `/api/video/${created.video_id}`)).json();
    expect(shown.video_thumbnail_url).toMatch(
      new RegExp(`^${ORIGIN}/media/thumbs/${created.video_id}-[0-9a-f]{32}\\.jpg$`),
    );
    expect(shown.poster_url).toMatch(new RegExp(`^${ORIGIN}/media/posters/`));
    expect(shown.video_length).toBe('2');

    const thumb = await call('GET', new URL(shown.video_thumbnail_url).pathname, undefined, {});
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/jpeg');
    expect(pictureSize(thumb.rawPayload)).toBe('100x80');
    const poster = await call('GET', new URL(shown.poster_url).pathname, undefined, {});
    expect(pictureSize(poster.rawPayload)).toBe('320x240');

    const played = await call('GET', new URL(location).pathname, undefined, {});
    expect(played.statusCode).toBe(200);
    expect(Buffer.compare(played.rawPayload, bytes)).toBe(0);
  });

  it('lists a set by week and day, and answers thumbnails by week to staff and to an assigned tablet', async () => {
    const setId = await addSet(3, 2);
    const b = await addVideo(setId, 2, 1);
    const a = await addVideo(setId, 1, 2);
    const c = await addVideo(setId, 1, 1);
    const list = (await call('GET', `/api/videoset/${setId}/videos`)).json();
    expect(list.map((v: { video_id: number }) => v.video_id)).toEqual([c.video_id, a.video_id, b.video_id]);

    const thumbs = (await call('GET', `/api/video/thumbs/${setId}`)).json();
    expect(Object.keys(thumbs)).toEqual(['1', '2']);
    expect(thumbs['1'].map((e: { day_number: number }) => e.day_number)).toEqual([1, 2]);
    expect(Object.keys(thumbs['1'][0]).sort()).toEqual(['day_number', 'video_id', 'video_thumbnail_url']);
    expect(thumbs['2'][0].video_id).toBe(b.video_id);

    const token = 'device-token-for-thumbnails-0001';
    const [device] = await t.ctx.database.db
      .insert(authorizedDevices)
      .values({
        name: 'Tablet',
        uuid: '11f00a29230cf038',
        organisation_id: (await firstSite(t.ctx.database.db)).organisation_id,
      })
      .returning();
    const [person] = await t.ctx.database.db
      .insert(participants)
      .values({
        first_name: 'Pat',
        last_name: 'Tablet',
        date_of_birth: '1950-01-01',
        phone_number: '+441234567890',
        address: '1 Road',
        authorized_device_id: device!.authorized_device_id,
        ...(await firstSite(t.ctx.database.db)),
      })
      .returning();
    await t.ctx.database.db.insert(deviceTokens).values({
      token_hash: hashDeviceToken(token),
      authorized_device_id: device!.authorized_device_id,
      participant_id: person!.participant_id,
    });
    // A tablet whose participant has no programme yet sees no set; with one, only its own set.
    const beforeProgramme = await call('GET', `/api/video/thumbs/${setId}`, undefined, {
      authorization: `Bearer ${token}`,
    });
    expect(beforeProgramme.statusCode).toBe(404);
    await t.ctx.database.db.insert(participationProgress).values({
      participant_id: person!.participant_id,
      fitness_video_set_id: setId,
      started_date: '2025-09-01',
      last_seen_date: '2025-09-01',
    });
    const fromTablet = await call('GET', `/api/video/thumbs/${setId}`, undefined, {
      authorization: `Bearer ${token}`,
    });
    expect(fromTablet.statusCode).toBe(200);
    expect(Object.keys(fromTablet.json())).toEqual(['1', '2']);
    const [otherSet] = await t.ctx.database.db
      .insert(videoSets)
      .values({
        set_name: 'Other programme',
        number_of_weeks: 1,
        videos_in_week: 1,
        organisation_id: (await firstSite(t.ctx.database.db)).organisation_id,
      })
      .returning();
    const otherFromTablet = await call(
      'GET',
      `/api/video/thumbs/${otherSet!.fitness_video_set_id}`,
      undefined,
      { authorization: `Bearer ${token}` },
    );
    expect(otherFromTablet.statusCode).toBe(404);
    expect(otherFromTablet.json().message).toBe(messages.videoSet.notFound);
    expect((await call('GET', `/api/video/thumbs/${otherSet!.fitness_video_set_id}`)).statusCode).toBe(200);
    const wrongToken = await call('GET', `/api/video/thumbs/${setId}`, undefined, {
      authorization: 'Bearer not-a-real-token-at-all-000',
    });
    expect(wrongToken.statusCode).toBe(401);
    expect((await call('GET', '/api/video/thumbs/999999')).statusCode).toBe(404);
    expect((await call('GET', `/api/videoset/999999/videos`)).statusCode).toBe(404);
  });

  it('refuses bad videos with clear messages and stores nothing', async () => {
    const setId = await addSet(2, 3);
    const location = await upload();
    const valid = {
      title: 'Arm raises',
      description: 'Raise both arms slowly.',
      file_location_path: location,
      fitness_video_set_id: setId,
      week_number: 1,
      day_number: 1,
    };
    const key = storedKey(location);
    const cases: [object, number, string][] = [
      [{ ...valid, title: '' }, 400, messages.video.titleEmpty],
      [{ ...valid, title: 'A' }, 400, messages.video.titleShort],
      [{ ...valid, description: undefined }, 400, messages.video.descriptionEmpty],
      [{ ...valid, description: 'x' }, 400, messages.video.descriptionShort],
      [{ ...valid, file_location_path: '' }, 400, messages.video.fileMissing],
      [
        { ...valid, file_location_path: `https://elsewhere.example/media/${key}` },
        400,
        messages.upload.unknownFile,
      ],
      [{ ...valid, file_location_path: `${ORIGIN}/media/${key}?x=1` }, 400, messages.upload.unknownFile],
      [
        { ...valid, file_location_path: `${ORIGIN}/media/uploads/../../db/x` },
        400,
        messages.upload.unknownFile,
      ],
      [{ ...valid, file_location_path: '/etc/passwd' }, 400, messages.upload.unknownFile],
      [
        { ...valid, file_location_path: `${ORIGIN}/media/uploads/${'0'.repeat(32)}` },
        400,
        messages.upload.unknownFile,
      ],
      [{ ...valid, week_number: 3 }, 400, messages.video.weekInvalid],
      [{ ...valid, week_number: 0 }, 400, messages.video.weekInvalid],
      [{ ...valid, day_number: 4 }, 400, messages.video.dayInvalid],
      [{ ...valid, day_number: 'one' }, 400, messages.video.dayInvalid],
      [{ ...valid, fitness_video_set_id: 999999 }, 404, messages.videoSet.notFound],
    ];
    for (const [payload, status, message] of cases) {
      const res = await call('POST', '/api/video', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json().message, JSON.stringify(payload)).toBe(message);
    }
    expect((await call('GET', `/api/videoset/${setId}/videos`)).json()).toEqual([]);

    // Relative forms of our own location are accepted too.
    expect(
      (await call('POST', '/api/video', { ...valid, file_location_path: `/media/${key}` })).statusCode,
    ).toBe(201);
    const taken = await call('POST', '/api/video', { ...valid, file_location_path: await upload() });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe(messages.video.positionTaken);
  });

  it('refuses an upload that has not finished', async () => {
    const setId = await addSet();
    const bytes = testVideo();
    const created = await t.app.inject({
      method: 'POST',
      url: '/companion',
      headers: { 'tus-resumable': '1.0.0', cookie: staff, 'upload-length': String(bytes.length) },
    });
    const location = created.headers.location!.replace('/companion/', '/media/uploads/');
    const res = await call('POST', '/api/video', {
      title: 'Half',
      description: 'Not all here',
      file_location_path: location,
      fitness_video_set_id: setId,
      week_number: 1,
      day_number: 1,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(messages.upload.notFinished);
  });

  it('edits title and description; replacing the file starts the thumbnail again and removes the old file', async () => {
    const setId = await addSet();
    const created = await addVideo(setId, 1, 1);
    const firstThumb = await thumbnailOf(created.video_id);
    const oldKey = storedKey(created.file_location_path);

    const edited = await call('PATCH', `/api/video/${created.video_id}`, {
      title: 'New title',
      description: 'New words',
      video_thumbnail_url: 'ignored',
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({
      title: 'New title',
      description: 'New words',
      file_location_path: created.file_location_path,
    });
    expect(edited.json().video_thumbnail_url).toBe(`${ORIGIN}/media/${firstThumb}`);
    expect((await call('PATCH', `/api/video/${created.video_id}`, { title: 'x' })).json().message).toBe(
      messages.video.titleShort,
    );
    expect((await call('PATCH', '/api/video/999999', { title: 'Nobody here' })).statusCode).toBe(404);

    const replacement = testVideo({ seconds: 3 });
    const newLocation = await upload(replacement);
    const replaced = await call('PATCH', `/api/video/${created.video_id}`, {
      title: 'Replaced',
      description: 'With a longer one',
      file_location_path: newLocation,
      file_size: 5,
      video_thumbnail_url: THUMBNAIL_PROCESSING,
    });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json()).toMatchObject({
      file_location_path: newLocation,
      file_size: replacement.length,
      video_thumbnail_url: THUMBNAIL_PROCESSING,
      video_length: '0',
    });

    const secondThumb = await thumbnailOf(created.video_id);
    expect(secondThumb).not.toBe(firstThumb);
    expect((await call('GET', `/api/video/${created.video_id}`)).json().video_length).toBe('3');
    await eventually(
      async () =>
        (await t.ctx.media.blobs.stat(oldKey)) === null &&
        (await t.ctx.media.blobs.stat(firstThumb)) === null,
    );
    expect((await call('GET', `/media/${oldKey}`, undefined, {})).statusCode).toBe(404);

    const bogus = await call('PATCH', `/api/video/${created.video_id}`, {
      file_location_path: 'https://elsewhere.example/video.mp4',
    });
    expect(bogus.statusCode).toBe(400);
    expect(bogus.json().message).toBe(messages.upload.unknownFile);
  });

  it('deletes a video with its viewing records; a file another video uses stays', async () => {
    const setId = await addSet();
    const otherSet = await addSet(1, 1, 'Other set');
    const location = await upload();
    const key = storedKey(location);
    const first = await addVideo(setId, 1, 1, location);
    const second = await addVideo(otherSet, 1, 1, location);
    const firstThumb = await thumbnailOf(first.video_id);
    await thumbnailOf(second.video_id);
    const [person] = await t.ctx.database.db
      .insert(participants)
      .values({
        first_name: 'Viewer',
        last_name: 'One',
        date_of_birth: '1950-01-01',
        phone_number: '+441234567892',
        address: '3 Road',
        ...(await firstSite(t.ctx.database.db)),
      })
      .returning();
    await t.ctx.database.db.insert(seenVideos).values({
      participant_id: person!.participant_id,
      video_id: first.video_id,
      fitness_video_set_id: setId,
      week_number: 1,
      day_number: 1,
    });

    const res = await call('DELETE', `/api/video/${first.video_id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(messages.video.deleted);
    expect((await call('GET', `/api/video/${first.video_id}`)).statusCode).toBe(404);
    expect(
      await t.ctx.database.db.select().from(seenVideos).where(eq(seenVideos.video_id, first.video_id)),
    ).toEqual([]);
    await eventually(async () => (await t.ctx.media.blobs.stat(firstThumb)) === null);
    expect(await t.ctx.media.blobs.stat(key)).not.toBeNull();
    expect((await call('GET', `/media/${key}`, undefined, {})).statusCode).toBe(200);

    expect((await call('DELETE', `/api/video/${second.video_id}`)).statusCode).toBe(200);
    await eventually(async () => (await t.ctx.media.blobs.stat(key)) === null);
    expect(
      await t.ctx.database.db.select().from(videoUploads).where(eq(videoUploads.storage_key, key)),
    ).toEqual([]);
    expect((await call('DELETE', `/api/video/${second.video_id}`)).statusCode).toBe(404);
  });

  it('deleting a set removes its files unless another set uses them, as its warning said', async () => {
    const setId = await addSet(1, 3, 'Going');
    const keepSet = await addSet(1, 1, 'Staying');
    const shared = await upload();
    const own = await upload();
    await addVideo(setId, 1, 1, shared);
    await addVideo(setId, 1, 2, own);
    await addVideo(keepSet, 1, 1, shared);

    const impact = (await call('GET', `/api/videoset/${setId}/deletion-impact`)).json();
    expect(impact).toEqual({ videos: 2, participants: 0, files_deleted: 1, files_kept: 1 });
    const res = await call('DELETE', `/api/videoset/${setId}`);
    expect(res.json()).toMatchObject({ videos: 2, files_deleted: 1, files_kept: 1 });
    await eventually(async () => (await t.ctx.media.blobs.stat(storedKey(own))) === null);
    expect(await t.ctx.media.blobs.stat(storedKey(shared))).not.toBeNull();
    expect((await call('GET', `/api/videoset/${keepSet}/videos`)).json()).toHaveLength(1);
  });

  it('GET /thumbs queues a thumbnail only when one is needed, and checks the URL belongs to the video', async () => {
    const setId = await addSet();
    const created = await addVideo(setId, 2, 3);
    const queued = await call(
      'GET',
      `/thumbs?videoUrl=${encodeURIComponent(created.file_location_path)}&videoId=${created.video_id}`,
    );
    expect(queued.statusCode).toBe(200);
    expect(queued.json().video_id).toBe(created.video_id);
    const thumb = await thumbnailOf(created.video_id);
    const again = await call(
      'GET',
      `/thumbs?videoUrl=${encodeURIComponent(created.file_location_path)}&videoId=${created.video_id}`,
    );
    expect(again.json()).toMatchObject({
      message: 'The thumbnail is ready',
      video_thumbnail_url: `${ORIGIN}/media/${thumb}`,
    });

    const mismatch = await call(
      'GET',
      `/thumbs?videoUrl=${encodeURIComponent('https://elsewhere.example/v.mp4')}&videoId=${created.video_id}`,
    );
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().message).toBe(messages.thumbnail.urlMismatch);
    expect((await call('GET', '/thumbs?videoId=999999')).statusCode).toBe(404);
    expect((await call('GET', '/thumbs?videoId=abc')).statusCode).toBe(400);
  });

  it('a thumbnail that cannot be made shows a status text, and /thumbs tries again once the file is back', async () => {
    const setId = await addSet();
    const created = await addVideo(setId, 1, 3);
    await thumbnailOf(created.video_id);
    const key = storedKey(created.file_location_path);
    const original = (await call('GET', `/media/${key}`, undefined, {})).rawPayload;
    // The stored file is lost (a storage fault): the last try records the failure for people to see.
    await t.ctx.media.blobs.delete(key);
    await makeThumbnail(t.ctx, { videoId: created.video_id, fileKey: key }, true);
    const thumbs = (await call('GET', `/api/video/thumbs/${setId}`)).json();
    const shown = thumbs['1'].find((e: { video_id: number }) => e.video_id === created.video_id);
    expect(shown.video_thumbnail_url).toBe(messages.thumbnail.failed);

    const dir = mkdtempSync(path.join(os.tmpdir(), 'pathway-restore-'));
    writeFileSync(path.join(dir, 'v.mp4'), original);
    await t.ctx.media.blobs.putFile(key, path.join(dir, 'v.mp4'), 'video/mp4');
    const retry = await call('GET', `/thumbs?videoId=${created.video_id}`);
    expect(retry.json()).toMatchObject({
      message: messages.thumbnail.queued,
      video_thumbnail_url: THUMBNAIL_PROCESSING,
    });
    const thumb = await thumbnailOf(created.video_id);
    expect(thumb).toMatch(/^thumbs\//);
  });

  it('re-extracts a thumbnail from the stored file, replacing the old pictures; a lost file is "Could not download video"', async () => {
    const setId = await addSet();
    const created = await addVideo(setId, 2, 2);
    const first = await thumbnailOf(created.video_id);
    const reextract = (body: object) => call('POST', '/api/video/thumbs/reextract', body);

    const res = await reextract({
      video_id: created.video_id,
      file_location_path: created.file_location_path,
    });
    expect(res.statusCode).toBe(202);
    expect(res.json().message).toBe(messages.thumbnail.queued);
    const second = await eventually(async () => {
      const [row] = await t.ctx.database.db
        .select()
        .from(videos)
        .where(eq(videos.video_id, created.video_id));
      return row && row.video_thumbnail_url !== first && row.video_thumbnail_url !== THUMBNAIL_PROCESSING
        ? row.video_thumbnail_url
        : undefined;
    });
    expect(second).toMatch(/^thumbs\//);
    // The old picture goes once the new one is in place.
    await eventually(async () => ((await t.ctx.media.blobs.stat(first)) === null ? true : undefined));

    const mismatch = await reextract({
      video_id: created.video_id,
      file_location_path: 'https://elsewhere.example/v.mp4',
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().message).toBe(messages.thumbnail.urlMismatch);
    expect(
      (await reextract({ video_id: 999999, file_location_path: created.file_location_path })).statusCode,
    ).toBe(404);
    expect((await reextract({ video_id: created.video_id })).statusCode).toBe(400);

    await t.ctx.media.blobs.delete(storedKey(created.file_location_path));
    const lost = await reextract({
      video_id: created.video_id,
      file_location_path: created.file_location_path,
    });
    expect(lost.statusCode).toBe(422);
    expect(lost.json().message).toBe(messages.thumbnail.couldNotDownload);
    const [row] = await t.ctx.database.db.select().from(videos).where(eq(videos.video_id, created.video_id));
    expect(row!.video_thumbnail_url).toBe(second);
  });

  it('are documented in the OpenAPI document with who may call them', async () => {
    const doc = (await t.app.inject('/api/docs/json')).json();
    for (const p of [
      '/api/videoset',
      '/api/videoset/{id}',
      '/api/videoset/{id}/videos',
      '/api/video',
      '/api/video/{video_id}',
      '/api/video/thumbs/{videoSetId}',
      '/thumbs',
      '/companion',
      '/companion/{uploadId}',
    ]) {
      expect(doc.paths, p).toHaveProperty([p]);
    }
    expect(doc.paths['/api/video/thumbs/{videoSetId}'].get.security).toEqual([
      { session: [] },
      { device: [] },
    ]);
    expect(doc.paths['/api/videoset'].post.security).toEqual([{ session: [] }]);
  });

  it('tells the console where and how to upload', async () => {
    const res = await call('GET', '/api/video/upload-settings');
    expect(res.json()).toEqual({
      endpoint: '/companion',
      max_upload_bytes: 4 * 1024 ** 3,
      chunk_size_bytes: 8 * 1024 * 1024,
    });
  });
});
