import { existsSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@pathway/contract';
import { buildApp } from '../../../app.js';
import { videoUploads } from '../../../db/schema.js';
import { describeOn } from '../../../../test/database-project.js';
import { createTestApp, signedInCookie, type TestApp } from '../../../../test/harness.js';
import { testImage, testVideo, uploadThroughTus } from '../../../../test/media-helpers.js';
import { waitUntil } from '../../../../test/wait.js';
import { cleanUpUploads } from '../media/jobs.js';

const MAX = 1_000_000;
let t: TestApp;
let staff: string;
let base: string;

beforeAll(async () => {
  t = await createTestApp({ env: { MAX_UPLOAD_BYTES: String(MAX) } });
  staff = (await signedInCookie(t.ctx, 'basic access')).cookie;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address() as { port: number };
  base = `http://127.0.0.1:${address.port}`;
});
afterAll(async () => {
  // A client socket that never sent a request (the HTTP client's spare) is not idle to Node,
  // which would keep the close waiting for its 60 s header timeout.
  t.app.server.closeAllConnections();
  await t.close();
});

const TUS = { 'tus-resumable': '1.0.0' };
/** A URL answered to an in-process (inject) request, on the listening server. */
const local = (url: string) => `${base}${new URL(url).pathname}`;
/** The status of a GET, with the body let go (an unread video would hold the connection open). */
async function statusOf(url: string): Promise<number> {
  const res = await fetch(url);
  await res.body?.cancel();
  return res.status;
}

async function create(size: number, cookie = staff) {
  return fetch(`${base}/companion`, {
    method: 'POST',
    headers: { ...TUS, cookie, 'upload-length': String(size) },
  });
}

async function offsetOf(uploadUrl: string): Promise<number> {
  const res = await fetch(uploadUrl, { method: 'HEAD', headers: { ...TUS, cookie: staff } });
  expect(res.status).toBe(200);
  return Number(res.headers.get('upload-offset'));
}

function patch(uploadUrl: string, offset: number, body: Buffer) {
  return fetch(uploadUrl, {
    method: 'PATCH',
    headers: {
      ...TUS,
      cookie: staff,
      'upload-offset': String(offset),
      'content-type': 'application/offset+octet-stream',
    },
    body: new Uint8Array(body),
  });
}

/**
 * Sends `body` from `offset` as one PATCH but drops the connection after `sendBytes`: what a
 * train going into a tunnel does to an upload.
 */
function patchAndDropConnection(
  uploadUrl: string,
  offset: number,
  body: Buffer,
  sendBytes: number,
): Promise<void> {
  return new Promise((resolve) => {
    const url = new URL(uploadUrl);
    const req = http.request({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: 'PATCH',
      headers: {
        ...TUS,
        cookie: staff,
        'upload-offset': String(offset),
        'content-type': 'application/offset+octet-stream',
        'content-length': String(body.length),
      },
    });
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    req.write(body.subarray(0, sendBytes), () => {
      // Dropped once the server has stored every byte sent (the upload's file on disk holds them).
      waitUntil(() => storedBytes(uploadUrl) >= sendBytes, 'the sent bytes to be stored').then(
        () => req.destroy(),
        () => req.destroy(),
      );
    });
  });
}

/** Bytes of an upload in its file under media/uploads/ (0 before it exists). */
function storedBytes(uploadUrl: string): number {
  const file = path.join(t.config.mediaDir, 'uploads', new URL(uploadUrl).pathname.split('/').pop()!);
  return existsSync(file) ? statSync(file).size : 0;
}

function waitForOffset(uploadUrl: string, atLeast: number): Promise<number> {
  return waitUntil(async () => {
    const offset = await offsetOf(uploadUrl);
    return offset >= atLeast ? offset : undefined;
  }, `an upload offset of at least ${atLeast}`);
}

describe('resumable upload', () => {
  it('is for signed-in staff only', async () => {
    const res = await create(1000, '');
    expect(res.status).toBe(401);
    expect((await res.json()).message).toBe(messages.session.required);
    const patchRes = await fetch(`${base}/companion/${'a'.repeat(32)}`, {
      method: 'PATCH',
      headers: { ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body: 'x',
    });
    expect(patchRes.status).toBe(401);
  });

  it('survives a dropped connection and resumes where it stopped; the stored file is the same byte for byte', async () => {
    const bytes = testVideo({ seconds: 2, size: '160x120', noise: true });
    expect(bytes.length).toBeGreaterThan(200_000);
    expect(bytes.length).toBeLessThan(MAX);
    const created = await create(bytes.length);
    expect(created.status).toBe(201);
    const uploadUrl = created.headers.get('location')!;
    expect(uploadUrl).toMatch(new RegExp(`^${base}/companion/[0-9a-f]{32}$`));

    await patchAndDropConnection(uploadUrl, 0, bytes, 100_000);
    const resumeAt = await waitForOffset(uploadUrl, 1);
    expect(resumeAt).toBeGreaterThan(0);
    expect(resumeAt).toBeLessThanOrEqual(100_000);
    const [receiving] = await t.ctx.database.db.select().from(videoUploads);
    expect(receiving).toMatchObject({ status: 'receiving', file_size: bytes.length });

    // A client that is wrong about the offset is told so and nothing is written.
    expect((await patch(uploadUrl, resumeAt + 10, bytes.subarray(resumeAt + 10))).status).toBe(409);

    const finished = await patch(uploadUrl, resumeAt, bytes.subarray(resumeAt));
    expect(finished.status).toBe(200);
    const body = await finished.json();
    expect(body).toEqual({
      location: uploadUrl.replace('/companion/', '/media/uploads/'),
      file_size: bytes.length,
      duration_seconds: 2,
    });

    const served = Buffer.from(await (await fetch(body.location)).arrayBuffer());
    expect(served.length).toBe(bytes.length);
    expect(Buffer.compare(served, bytes)).toBe(0);

    // The finished answer can be read again by a client that lost it.
    const again = await fetch(uploadUrl, { headers: { cookie: staff } });
    expect(await again.json()).toEqual(body);
    // A finished upload cannot be cancelled: it may be a video's file.
    expect((await fetch(uploadUrl, { method: 'DELETE', headers: { ...TUS, cookie: staff } })).status).toBe(
      400,
    );
    expect(await statusOf(body.location)).toBe(200);
  });

  it('refuses a file that is not a playable video, and keeps none of it', async () => {
    for (const bytes of [
      Buffer.from('This is a text file pretending to be a video.\n'.repeat(50)),
      testImage(),
    ]) {
      const res = await uploadThroughTus(t.app, staff, bytes);
      expect(res.status).toBe(422);
      expect(res.body.message).toBe(messages.upload.notAVideo);
      const id = res.uploadUrl.split('/').pop()!;
      expect(existsSync(path.join(t.config.mediaDir, 'uploads', id))).toBe(false);
      expect(existsSync(path.join(t.config.mediaDir, 'uploads', `${id}.json`))).toBe(false);
      expect(
        await t.ctx.database.db
          .select()
          .from(videoUploads)
          .where(eq(videoUploads.storage_key, `uploads/${id}`)),
      ).toEqual([]);
      expect(
        (await fetch(local(res.uploadUrl), { method: 'HEAD', headers: { ...TUS, cookie: staff } })).status,
      ).toBe(404);
    }
  });

  it('refuses a file larger than MAX_UPLOAD_BYTES, or one larger than it said, with a clear message', async () => {
    const tooBig = await create(MAX + 1);
    expect(tooBig.status).toBe(413);
    expect((await tooBig.json()).message).toBe(`${messages.upload.tooLarge} (976.6 KB).`);

    const created = await create(1000);
    const uploadUrl = created.headers.get('location')!;
    const overflow = await patch(uploadUrl, 0, Buffer.alloc(2000, 1));
    expect(overflow.status).toBe(413);

    const deferred = await fetch(`${base}/companion`, {
      method: 'POST',
      headers: { ...TUS, cookie: staff, 'upload-defer-length': '1' },
    });
    expect(deferred.status).toBe(400);
    expect((await deferred.json()).message).toMatch(/Upload-Length is required/);
  });

  it('lets the uploader cancel an unfinished upload', async () => {
    const created = await create(5000);
    const uploadUrl = created.headers.get('location')!;
    await patch(uploadUrl, 0, Buffer.alloc(1000, 7));
    const id = uploadUrl.split('/').pop()!;
    const cancelled = await fetch(uploadUrl, { method: 'DELETE', headers: { ...TUS, cookie: staff } });
    expect(cancelled.status).toBe(204);
    expect(existsSync(path.join(t.config.mediaDir, 'uploads', id))).toBe(false);
    await expect
      .poll(
        async () =>
          (
            await t.ctx.database.db
              .select()
              .from(videoUploads)
              .where(eq(videoUploads.storage_key, `uploads/${id}`))
          ).length,
      )
      .toBe(0);
  });

  it('cleans up uploads abandoned, or finished and never saved, after a day; saved ones stay', async () => {
    const abandoned = await create(5000);
    const abandonedUrl = abandoned.headers.get('location')!;
    await patch(abandonedUrl, 0, Buffer.alloc(1000, 7));
    const unsaved = await uploadThroughTus(t.app, staff, testVideo());
    const saved = await uploadThroughTus(t.app, staff, testVideo());
    const set = await t.app.inject({
      method: 'POST',
      url: '/api/videoset',
      headers: { cookie: staff },
      payload: { set_name: 'Kept', number_of_weeks: 1, videos_in_week: 1 },
    });
    const video = await t.app.inject({
      method: 'POST',
      url: '/api/video',
      headers: { cookie: staff },
      payload: {
        title: 'Saved',
        description: 'A saved video',
        file_location_path: saved.body.location,
        fitness_video_set_id: set.json().fitness_video_set_id,
        week_number: 1,
        day_number: 1,
      },
    });
    expect(video.statusCode).toBe(201);
    const fresh = await create(5000);
    const freshUrl = fresh.headers.get('location')!;
    const idOf = (u: string) => `uploads/${u.split('/').pop()}`;
    const dayAndABit = sql`now() - interval '25 hours'`;
    await t.ctx.database.db
      .update(videoUploads)
      .set({
        last_activity_at: dayAndABit,
        finished_at: sql`case when ${videoUploads.finished_at} is null then null else ${dayAndABit} end`,
      })
      .where(
        sql`${videoUploads.storage_key} in (${idOf(abandonedUrl)}, ${idOf(unsaved.uploadUrl)}, ${idOf(saved.uploadUrl)})`,
      );

    expect(await cleanUpUploads(t.ctx)).toBe(2);
    await t.ctx.jobs.startWorkers();
    await expect
      .poll(() => existsSync(path.join(t.config.mediaDir, idOf(abandonedUrl))), { timeout: 120_000 })
      .toBe(false);
    await expect
      .poll(() => existsSync(path.join(t.config.mediaDir, idOf(unsaved.uploadUrl))), { timeout: 120_000 })
      .toBe(false);
    expect((await fetch(abandonedUrl, { method: 'HEAD', headers: { ...TUS, cookie: staff } })).status).toBe(
      404,
    );
    expect(await statusOf(local(unsaved.body.location!))).toBe(404);
    expect(await offsetOf(freshUrl)).toBe(0);
    expect(await statusOf(local(saved.body.location!))).toBe(200);
  });
});

// A PATCH refused before its body is read (offset moved, disk full, too large) is answered with
// `Connection: close`. The body must be read first: a socket closed while its client is still
// sending fails the client's write (EPIPE) before it can read the answer.
describe('a refused upload PATCH', () => {
  const LARGE = 32 * 1024 * 1024;
  let large: TestApp;
  let largeBase: string;
  let cookie: string;
  beforeAll(async () => {
    large = await createTestApp({ env: { MAX_UPLOAD_BYTES: String(LARGE) } });
    cookie = (await signedInCookie(large.ctx, 'basic access')).cookie;
    await large.app.listen({ port: 0, host: '127.0.0.1' });
    largeBase = `http://127.0.0.1:${(large.app.server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    large.app.server.closeAllConnections();
    await large.close();
  });

  /** One PATCH with its whole body: the answer once the body has gone out and the answer is read. */
  function sendWhole(url: string, headers: Record<string, string>, body: Buffer) {
    return new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(url, {
        method: 'PATCH',
        headers: { ...headers, 'content-length': body.length },
      });
      req.on('error', reject); // a write that failed: EPIPE or a reset
      const sent = new Promise((done) => req.on('finish', done));
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          void sent.then(() => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString() }));
        });
      });
      req.end(body);
    });
  }

  it('reaches its client with the message, even with far more body than a socket buffers', async () => {
    const created = await fetch(`${largeBase}/companion`, {
      method: 'POST',
      headers: { ...TUS, cookie, 'upload-length': String(LARGE) },
    });
    expect(created.status).toBe(201);
    const uploadUrl = created.headers.get('location')!;
    const headers = { ...TUS, cookie, 'content-type': 'application/offset+octet-stream' };
    const refused = await sendWhole(
      uploadUrl,
      { ...headers, 'upload-offset': '4096' },
      Buffer.alloc(LARGE - 4096),
    );
    expect(refused.status).toBe(409);
    expect((JSON.parse(refused.body) as { message: string }).message).toMatch(/offset/i);

    const head = await fetch(uploadUrl, { method: 'HEAD', headers: { ...TUS, cookie } });
    expect(head.headers.get('upload-offset')).toBe('0');
    // The refusal changed nothing, and the upload takes its bytes from where it is.
    const resumed = await fetch(uploadUrl, {
      method: 'PATCH',
      headers: { ...headers, 'upload-offset': '0' },
      body: new Uint8Array(1024),
    });
    expect(resumed.status).toBe(204);
    expect(resumed.headers.get('upload-offset')).toBe('1024');
  });
});

describe('a stopping server', () => {
  it('finishes checking an upload whose last byte it stored, with the client already gone', async () => {
    const own = await createTestApp();
    try {
      const cookie = (await signedInCookie(own.ctx, 'basic access')).cookie;
      await own.app.listen({ port: 0, host: '127.0.0.1' });
      const ownBase = `http://127.0.0.1:${(own.app.server.address() as { port: number }).port}`;
      const video = testVideo({ seconds: 2, size: '160x120', noise: true });
      const created = await fetch(`${ownBase}/companion`, {
        method: 'POST',
        headers: { ...TUS, cookie, 'upload-length': String(video.length) },
      });
      const id = created.headers.get('location')!.split('/').pop()!;
      const file = path.join(own.config.mediaDir, 'uploads', id);
      const req = http.request(`${ownBase}/companion/${id}`, {
        method: 'PATCH',
        headers: {
          ...TUS,
          cookie,
          'upload-offset': '0',
          'content-type': 'application/offset+octet-stream',
          'content-length': String(video.length),
        },
      });
      req.on('error', () => {});
      req.end(video);
      // Every byte stored, so the check (ffprobe, then the database) runs: the client leaves, the server stops.
      await waitUntil(() => existsSync(file) && statSync(file).size === video.length, 'every byte stored');
      req.destroy();
      await own.app.close();
      const [row] = await own.ctx.database.db
        .select()
        .from(videoUploads)
        .where(eq(videoUploads.storage_key, `uploads/${id}`));
      expect(row?.status).toBe('ready');
      expect(row?.file_size).toBe(video.length);
    } finally {
      own.app.server.closeAllConnections();
      await own.close();
    }
  });
});

// Several web instances on one PostgreSQL database: a request on one instance that wants an upload
// another instance is still writing asks it to let go, and waits for it, instead of racing it.
describeOn('postgres', 'upload locks across instances', () => {
  it(
    'a resume on another instance stops the stale request first, then continues from its last byte',
    { timeout: 180_000 },
    async () => {
      const other = await buildApp(t.ctx);
      await other.listen({ port: 0, host: '127.0.0.1' });
      const otherBase = `http://127.0.0.1:${(other.server.address() as { port: number }).port}`;
      let stale: http.ClientRequest | undefined;
      try {
        const bytes = testVideo({ seconds: 2, size: '160x120', noise: true });
        const created = await create(bytes.length);
        const uploadUrl = created.headers.get('location')!;
        const id = uploadUrl.split('/').pop()!;

        // Instance A receives 100 kB and then nothing: the client is gone but the socket stays open.
        let staleClosed = false;
        const url = new URL(uploadUrl);
        const request = http.request({
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'PATCH',
          headers: {
            ...TUS,
            cookie: staff,
            'upload-offset': '0',
            'content-type': 'application/offset+octet-stream',
            'content-length': String(bytes.length),
          },
        });
        stale = request;
        request.on('error', () => {});
        request.on('close', () => (staleClosed = true));
        request.on('response', (res) => res.resume());
        await new Promise<void>((resolve) => request.write(bytes.subarray(0, 100_000), () => resolve()));
        // A has stored what it got and still holds the request (and the lock).
        await waitUntil(() => storedBytes(uploadUrl) >= 100_000, 'instance A to store the first 100 kB');
        expect(staleClosed).toBe(false);

        // Instance B is asked for the offset: it gets the lock only once A has let go.
        const head = await fetch(`${otherBase}/companion/${id}`, {
          method: 'HEAD',
          headers: { ...TUS, cookie: staff },
        });
        expect(head.status).toBe(200);
        const offset = Number(head.headers.get('upload-offset'));
        expect(offset).toBeGreaterThan(0);
        expect(offset).toBeLessThanOrEqual(100_000);
        await expect.poll(() => staleClosed, { timeout: 120_000 }).toBe(true);

        const rest = await fetch(`${otherBase}/companion/${id}`, {
          method: 'PATCH',
          headers: {
            ...TUS,
            cookie: staff,
            'upload-offset': String(offset),
            'content-type': 'application/offset+octet-stream',
          },
          body: new Uint8Array(bytes.subarray(offset)),
        });
        expect(rest.status).toBe(200);
        const { location } = (await rest.json()) as { location: string };
        const stored = Buffer.from(
          await (await fetch(`${otherBase}${new URL(location).pathname}`)).arrayBuffer(),
        );
        expect(Buffer.compare(stored, bytes)).toBe(0);
      } finally {
        // The half-open client of this test, and keep-alive sockets of its fetch calls, would
        // otherwise hold the servers' close open.
        stale?.destroy();
        other.server.closeAllConnections();
        await other.close();
      }
    },
  );
});
