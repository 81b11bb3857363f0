import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THUMBNAIL_PROCESSING } from '@pathway/contract';
import { videos } from '../../../db/schema.js';
import { JobQueue } from '../../../jobs/queue.js';
import { jobDefinitions } from '../../../jobs/registry.js';
import { describeOn } from '../../../../test/database-project.js';
import { createTestApp, signedInCookie, type TestApp } from '../../../../test/harness.js';
import { eventually, testVideo, uploadThroughTus } from '../../../../test/media-helpers.js';
import { THUMBNAIL_JOB } from './thumbnail-job.js';

async function saveVideo(t: TestApp, cookie: string) {
  const set = await t.app.inject({
    method: 'POST',
    url: '/api/videoset',
    headers: { cookie },
    payload: { set_name: 'Jobs', number_of_weeks: 1, videos_in_week: 1 },
  });
  const uploaded = await uploadThroughTus(t.app, cookie, testVideo());
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/video',
    headers: { cookie },
    payload: {
      title: 'Job test',
      description: 'Made by the queue',
      file_location_path: uploaded.body.location,
      fitness_video_set_id: set.json().fitness_video_set_id,
      week_number: 1,
      day_number: 1,
    },
  });
  expect(res.statusCode).toBe(201);
  return res.json<{ video_id: number; file_location_path: string }>();
}

const thumbnailOf = (t: TestApp, videoId: number) =>
  eventually(async () => {
    const [row] = await t.ctx.database.db.select().from(videos).where(eq(videos.video_id, videoId));
    return row && row.video_thumbnail_url !== THUMBNAIL_PROCESSING ? row : undefined;
  });

describe('thumbnail job', () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await createTestApp({ workers: true });
    cookie = (await signedInCookie(t.ctx)).cookie;
  });
  afterAll(() => t.close());

  it('is retried after a failure and then succeeds', async () => {
    const set = await t.app.inject({
      method: 'POST',
      url: '/api/videoset',
      headers: { cookie },
      payload: { set_name: 'Retry', number_of_weeks: 1, videos_in_week: 1 },
    });
    const uploaded = await uploadThroughTus(t.app, cookie, testVideo());
    const key = new URL(uploaded.body.location!).pathname.replace('/media/', '');
    // The file is away from storage when the first try runs (a storage fault), and back later.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pathway-keep-'));
    const copy = path.join(dir, 'v.mp4');
    writeFileSync(copy, (await t.app.inject({ method: 'GET', url: `/media/${key}` })).rawPayload);
    await t.ctx.media.blobs.delete(key);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/video',
      headers: { cookie },
      payload: {
        title: 'Retried',
        description: 'Second time lucky',
        file_location_path: uploaded.body.location,
        fitness_video_set_id: set.json().fitness_video_set_id,
        week_number: 1,
        day_number: 1,
      },
    });
    const video = res.json<{ video_id: number }>();

    await eventually(async () => {
      const { rows } = await t.ctx.jobs.boss
        .getDb()
        .executeSql(`select retry_count from pgboss.job where name = $1 and data->>'videoId' = $2`, [
          THUMBNAIL_JOB,
          String(video.video_id),
        ]);
      return rows.some((r) => r.retry_count >= 1);
    });
    const [stillProcessing] = await t.ctx.database.db
      .select()
      .from(videos)
      .where(eq(videos.video_id, video.video_id));
    expect(stillProcessing!.video_thumbnail_url).toBe(THUMBNAIL_PROCESSING);

    await t.ctx.media.blobs.putFile(key, copy, 'video/mp4');
    const done = await thumbnailOf(t, video.video_id);
    expect(done.video_thumbnail_url).toMatch(/^thumbs\/\d+-[0-9a-f]{32}\.jpg$/);
    expect(done.video_length).toBe('2');
  });
});

// The embedded server reclaims at start the jobs a stopped process left active. On PostgreSQL a
// lost job is retried when it expires (expireInSeconds, ten minutes for thumbnails) instead.
describeOn('pglite', 'thumbnail job after a crash', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('runs again when the next process starts', async () => {
    const { cookie } = await signedInCookie(t.ctx);
    const video = await saveVideo(t, cookie);
    // A worker takes the job and dies before finishing it.
    const taken = await t.ctx.jobs.boss.fetch(THUMBNAIL_JOB);
    expect(taken).toHaveLength(1);
    const { rows } = await t.ctx.jobs.boss
      .getDb()
      .executeSql('select state from pgboss.job where id = $1', [taken[0]!.id]);
    expect(rows[0]!.state).toBe('active');

    const next = await JobQueue.start(t.ctx.database, t.ctx.logger, 'all');
    for (const definition of jobDefinitions(t.ctx)) await next.define(definition);
    await next.startWorkers();
    try {
      const done = await thumbnailOf(t, video.video_id);
      expect(done.video_thumbnail_url).toMatch(/^thumbs\//);
      expect(done.poster_url).toMatch(/^posters\//);
    } finally {
      await next.stop();
    }
  });
});
