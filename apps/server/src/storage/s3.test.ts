import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@tus/utils';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THUMBNAIL_PROCESSING, messages } from '@pathway/contract';
import { buildApp } from '../app.js';
import { videos } from '../db/schema.js';
import { startCephS3, type CephS3 } from '../../test/ceph-s3.js';
import { createTestApp, signedInCookie, type TestApp } from '../../test/harness.js';
import { eventually, testVideo, uploadThroughTus } from '../../test/media-helpers.js';
import { waitUntil } from '../../test/wait.js';
import { FileBlobStore } from './file-blob-store.js';
import type { BlobStore } from './blob-store.js';
import { createMediaStorage } from './media-storage.js';
import { S3BlobStore, s3ClientConfig } from './s3-blob-store.js';
import { S3UploadStore } from './s3-upload-store.js';

// Everything below runs against a real S3 API (Ceph radosgw) on 127.0.0.1.
let ceph: CephS3;
let client: S3Client;
const bucket = 'pathway-test';

beforeAll(async () => {
  // On a busy machine a daemon can miss its start window; one more try is cheap.
  ceph = await startCephS3().catch(() => startCephS3());
  client = new S3Client(s3ClientConfig({ ...ceph, bucket, forcePathStyle: true }));
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
}, 300_000);
afterAll(async () => {
  client?.destroy();
  await ceph?.stop();
});

async function objectKeys(prefix = ''): Promise<string[]> {
  const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
  return (listed.Contents ?? []).map((o) => o.Key!).sort();
}

/** How many parts of the multipart upload of `key` the bucket holds (0 before it starts). */
async function storedParts(key: string): Promise<number> {
  const uploads = await client.send(new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: key }));
  const upload = uploads.Uploads?.find((u) => u.Key === key);
  if (!upload?.UploadId) return 0;
  const parts = await client.send(
    new ListPartsCommand({ Bucket: bucket, Key: key, UploadId: upload.UploadId }),
  );
  return parts.Parts?.length ?? 0;
}

function localFile(bytes: Buffer): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'pathway-blob-')), 'blob');
  writeFileSync(file, bytes);
  return file;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

describe.each([
  ['files', () => new FileBlobStore(mkdtempSync(path.join(os.tmpdir(), 'pathway-media-')))],
  ['S3', () => new S3BlobStore({ ...ceph, bucket, forcePathStyle: true })],
] as const)('blob store on %s', (_name, makeStore) => {
  let store: BlobStore;
  beforeAll(() => {
    store = makeStore();
  });

  it('stores, describes, reads whole and in ranges, and deletes', async () => {
    const bytes = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251));
    const key = `thumbs/blob-${Date.now()}.jpg`;
    expect(await store.stat(key)).toBeNull();
    await store.putFile(key, localFile(bytes), 'image/jpeg');
    const info = await store.stat(key);
    expect(info!.size).toBe(5000);
    expect(info!.lastModified.getTime()).toBeGreaterThan(Date.now() - 600_000);
    expect(Buffer.compare(await readAll(await store.read(key)), bytes)).toBe(0);
    expect(
      Buffer.compare(
        await readAll(await store.read(key, { start: 100, end: 199 })),
        bytes.subarray(100, 200),
      ),
    ).toBe(0);
    expect(
      Buffer.compare(await readAll(await store.read(key, { start: 4990, end: 4999 })), bytes.subarray(4990)),
    ).toBe(0);
    await store.delete(key);
    expect(await store.stat(key)).toBeNull();
    await store.delete(key);
    await expect(store.read(key)).rejects.toThrow(/No stored file/);
  });

  it('gives ffmpeg an input it can open', async () => {
    const key = `uploads/${'c'.repeat(32)}`;
    await store.putFile(key, localFile(testVideo()), 'video/mp4');
    const input = await store.inputFor(key);
    const { checkPlayable, resolveVideoTools } = await import('../modules/videos/media/video-tools.js');
    const probe = await checkPlayable(resolveVideoTools(), input);
    expect(probe).toMatchObject({ width: 320, height: 240, durationSeconds: 2, contentType: 'video/mp4' });
    await store.delete(key);
  });

  it('refuses keys that are not ours', async () => {
    for (const key of [
      '../etc/passwd',
      'uploads/../../x',
      '/abs',
      'other/thing',
      'uploads/',
      'thumbs/a b.jpg',
    ]) {
      await expect(store.stat(key), key).rejects.toThrow(/Invalid storage key/);
    }
  });
});

describe('upload store on S3', () => {
  const MiB = 1024 * 1024;
  const makeStore = () =>
    new S3UploadStore({
      partSize: 8 * MiB,
      s3ClientConfig: { ...s3ClientConfig({ ...ceph, bucket, forcePathStyle: true }), bucket },
    });
  const bytes = Buffer.from(Array.from({ length: 12 * MiB }, (_, i) => (i * 7) % 251));

  it('refuses a write when the bucket no longer holds exactly the offset it was sent for, and stores no bytes twice', async () => {
    const store = makeStore();
    const id = `uploads/${'d'.repeat(32)}`;
    await store.create(new Upload({ id, size: bytes.length, offset: 0 }));
    expect(await store.write(Readable.from([bytes.subarray(0, 8 * MiB)]), id, 0)).toBe(8 * MiB);
    expect((await store.getUpload(id)).offset).toBe(8 * MiB);
    // Another writer (a server finishing a dropped PATCH) stores an incomplete part after the
    // offset was read: the write from the old offset must not take those bytes in again.
    await client.send(
      new PutObjectCommand({ Bucket: bucket, Key: `${id}.part`, Body: bytes.subarray(8 * MiB, 9 * MiB) }),
    );
    await expect(store.write(Readable.from([bytes.subarray(8 * MiB)]), id, 8 * MiB)).rejects.toMatchObject({
      status_code: 409,
      body: JSON.stringify({ message: messages.upload.offsetMoved }),
    });
    // Nothing changed: the client reads the offset again and resumes from there.
    expect((await store.getUpload(id)).offset).toBe(9 * MiB);
    expect(await store.write(Readable.from([bytes.subarray(9 * MiB)]), id, 9 * MiB)).toBe(bytes.length);
    const stored = await readAll(await store.read(id));
    expect(Buffer.compare(stored, bytes)).toBe(0);
    await store.remove(id).catch(() => {});
    for (const suffix of ['', '.info', '.part'])
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: `${id}${suffix}` }));
  });

  it('answers 409 to a write and 404 to a read of an upload that was removed meanwhile, never a 500', async () => {
    const store = makeStore();
    const id = `uploads/${'e'.repeat(32)}`;
    await store.create(new Upload({ id, size: bytes.length, offset: 0 }));
    expect(await store.write(Readable.from([bytes.subarray(0, 8 * MiB)]), id, 0)).toBe(8 * MiB);
    // Removed by another server (a cancelled or refused upload): this store still has it cached.
    await makeStore().remove(id);
    await expect(store.write(Readable.from([bytes.subarray(8 * MiB)]), id, 8 * MiB)).rejects.toMatchObject({
      status_code: 409,
    });
    await expect(store.getUpload(id)).rejects.toMatchObject({ status_code: 404 });
  });
});

describe('video library on S3', () => {
  let t: TestApp;
  let staff: string;

  beforeAll(async () => {
    t = await createTestApp({
      workers: true,
      env: {
        S3_ENDPOINT: ceph.endpoint,
        S3_BUCKET: bucket,
        S3_ACCESS_KEY_ID: ceph.accessKeyId,
        S3_SECRET_ACCESS_KEY: ceph.secretAccessKey,
      },
    });
    expect(t.ctx.media.blobs.kind).toBe('s3');
    staff = (await signedInCookie(t.ctx, 'basic access')).cookie;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    // A client socket that never sent a request is not idle to Node: it would hold the close.
    t.app.server.closeAllConnections();
    await t.close();
  });

  const TUS = { 'tus-resumable': '1.0.0' };

  it('takes a multipart upload that is interrupted and resumed by a new upload server, byte for byte', async () => {
    const bytes = testVideo({ seconds: 4, size: '640x360', noise: true });
    expect(bytes.length).toBeGreaterThan(9 * 1024 * 1024);
    const first = await buildApp(t.ctx);
    await first.listen({ port: 0, host: '127.0.0.1' });
    const base1 = `http://127.0.0.1:${(first.server.address() as { port: number }).port}`;
    const created = await fetch(`${base1}/companion`, {
      method: 'POST',
      headers: { ...TUS, cookie: staff, 'upload-length': String(bytes.length) },
    });
    expect(created.status).toBe(201);
    const uploadUrl = created.headers.get('location')!;
    const id = uploadUrl.split('/').pop()!;

    // Nine MiB, then the connection drops: one whole part is in S3, the rest is lost or kept as a partial part.
    let firstPartStored: Promise<unknown> = Promise.resolve();
    await new Promise<void>((resolve) => {
      const url = new URL(uploadUrl);
      const req = http.request({
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
      req.on('error', () => resolve());
      req.on('close', () => resolve());
      // The connection drops once the first whole part is in the bucket (the S3 store sends it
      // while the rest of the body streams in), not after a guessed time. The server is then
      // still storing the last, incomplete part: its stop waits for that write, so the resume
      // below never runs beside it (which once put bytes into the file twice).
      req.write(bytes.subarray(0, 9 * 1024 * 1024), () => {
        firstPartStored = waitUntil(
          async () => (await storedParts(`uploads/${id}`)) > 0,
          'the first whole part of the upload to be stored in the bucket',
        ).finally(() => req.destroy());
      });
    });
    await firstPartStored;

    // The server stops (finishing what it had received) and a new one starts: new tus server and
    // S3 store, nothing in memory from before.
    await first.close();
    // Its stop waited for the store's writes, the dropped PATCH's included: none still runs.
    expect(await t.ctx.media.uploads.drain(0)).toBe(true);
    t.ctx.media = await createMediaStorage(t.config);
    const restarted = await buildApp(t.ctx);
    await restarted.listen({ port: 0, host: '127.0.0.1' });
    const base2 = `http://127.0.0.1:${(restarted.server.address() as { port: number }).port}`;
    try {
      // As a tus client does: read the offset, send the rest from there, and on a 409 (the
      // stopped server's last part landed meanwhile) read the offset again.
      let rest: Response | undefined;
      for (let attempt = 0; attempt < 5 && rest?.status !== 200; attempt++) {
        const head = await fetch(`${base2}/companion/${id}`, {
          method: 'HEAD',
          headers: { ...TUS, cookie: staff },
        });
        const offset = Number(head.headers.get('upload-offset'));
        expect(offset).toBeGreaterThan(0);
        expect(offset).toBeLessThanOrEqual(9 * 1024 * 1024);
        rest = await fetch(`${base2}/companion/${id}`, {
          method: 'PATCH',
          headers: {
            ...TUS,
            cookie: staff,
            'upload-offset': String(offset),
            'content-type': 'application/offset+octet-stream',
          },
          body: new Uint8Array(bytes.subarray(offset)),
        });
        // The stopped server's last part lands while we read: wait until the offset moves on.
        if (rest.status === 409)
          await waitUntil(async () => {
            const again = await fetch(`${base2}/companion/${id}`, {
              method: 'HEAD',
              headers: { ...TUS, cookie: staff },
            });
            return Number(again.headers.get('upload-offset')) !== offset;
          }, 'the offset to move past the last stored part');
      }
      expect(rest!.status).toBe(200);
      const body = (await rest!.json()) as { location: string; file_size: number };
      expect(body.file_size).toBe(bytes.length);
      const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: `uploads/${id}` }));
      expect(head.ContentLength).toBe(bytes.length);

      const served = Buffer.from(
        await (await fetch(`${base2}${new URL(body.location).pathname}`)).arrayBuffer(),
      );
      expect(Buffer.compare(served, bytes)).toBe(0);
      const ranged = await fetch(`${base2}${new URL(body.location).pathname}`, {
        headers: { range: 'bytes=8388600-8388699' },
      });
      expect(ranged.status).toBe(206);
      expect(Buffer.compare(Buffer.from(await ranged.arrayBuffer()), bytes.subarray(8388600, 8388700))).toBe(
        0,
      );
    } finally {
      await restarted.close();
    }
  });

  it('makes thumbnails from the bucket, serves them, and deletes every object with the video', async () => {
    const set = await t.app.inject({
      method: 'POST',
      url: '/api/videoset',
      headers: { cookie: staff },
      payload: { set_name: 'On S3', number_of_weeks: 1, videos_in_week: 1 },
    });
    const uploaded = await uploadThroughTus(t.app, staff, testVideo());
    expect(uploaded.status).toBe(200);
    const id = uploaded.uploadUrl.split('/').pop()!;
    const saved = await t.app.inject({
      method: 'POST',
      url: '/api/video',
      headers: { cookie: staff },
      payload: {
        title: 'Stored in S3',
        description: 'From the bucket',
        file_location_path: uploaded.body.location,
        fitness_video_set_id: set.json().fitness_video_set_id,
        week_number: 1,
        day_number: 1,
      },
    });
    expect(saved.statusCode).toBe(201);
    const videoId = saved.json().video_id as number;
    const row = await eventually(async () => {
      const [r] = await t.ctx.database.db.select().from(videos).where(eq(videos.video_id, videoId));
      return r && r.video_thumbnail_url !== THUMBNAIL_PROCESSING ? r : undefined;
    });
    expect(row.video_thumbnail_url).toMatch(/^thumbs\//);
    expect(row.video_length).toBe('2');
    expect(await objectKeys('thumbs/')).toContain(row.video_thumbnail_url);
    const thumb = await t.app.inject({ method: 'GET', url: `/media/${row.video_thumbnail_url}` });
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/jpeg');

    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/video/${videoId}`, headers: { cookie: staff } }))
        .statusCode,
    ).toBe(200);
    await eventually(async () => {
      const left = await objectKeys();
      return !left.some(
        (k) => k.startsWith(`uploads/${id}`) || k === row.video_thumbnail_url || k === row.poster_url,
      );
    });
  });

  it('refuses a file that is not a video and leaves nothing of it in the bucket', async () => {
    const res = await uploadThroughTus(t.app, staff, Buffer.from('not a video at all\n'.repeat(100)));
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(messages.upload.notAVideo);
    const id = res.uploadUrl.split('/').pop()!;
    expect(await objectKeys(`uploads/${id}`)).toEqual([]);
  });
});
