import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInCookie } from '../harness.js';
import { testVideo } from '../media-helpers.js';
import {
  AcknowledgedWrites,
  insertDevices,
  kill,
  processSite,
  startServerProcess,
  withDatabase,
  type ProcessSite,
  type ServerProcess,
} from './helpers.js';

// SIGKILL in the middle of a tus PATCH, with participants being added at the same time: after a
// restart on the same DATA_DIR (and database) the upload resumes from the offset the server
// reports and ends byte-exact, and every participant the server acknowledged is still there.
let site: ProcessSite;
beforeAll(async () => {
  site = await processSite('kill-upload');
});
afterAll(async () => {
  await site.cleanup();
});

const TUS = { 'tus-resumable': '1.0.0' };
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('SIGKILL during an upload', () => {
  it('resumes byte-exact from the stored offset, and loses no acknowledged write', async () => {
    const bytes = testVideo({ seconds: 3, size: '320x240', noise: true });
    const { cookie, uuids } = await withDatabase(site, async (ctx) => ({
      cookie: (await signedInCookie(ctx, 'full access')).cookie,
      uuids: await insertDevices(ctx, 5000, 'Kill upload tablet'),
    }));

    let server: ServerProcess = await startServerProcess(site.env);
    const writes = new AcknowledgedWrites(server.url, cookie, uuids).start();
    const start = await fetch(`${server.url}/companion`, {
      method: 'POST',
      headers: { ...TUS, cookie, 'upload-length': String(bytes.length) },
    });
    expect(start.status).toBe(201);
    const uploadPath = new URL(start.headers.get('location')!).pathname;
    const storedFile = path.join(site.dataDir, 'media', 'uploads', uploadPath.split('/').pop()!);

    // One PATCH whose body is still streaming when the process dies: the first 40 % is sent, the
    // rest never is. Waiting until the file holds those bytes puts the kill inside the request.
    const sentBeforeKill = Math.floor(bytes.length * 0.4);
    let feed!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({ start: (c) => void (feed = c) });
    const patch = fetch(`${server.url}${uploadPath}`, {
      method: 'PATCH',
      headers: { ...TUS, cookie, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body,
      duplex: 'half',
    } as RequestInit).then(
      (res) => ({ status: res.status }),
      (error: Error) => ({ error }),
    );
    feed.enqueue(new Uint8Array(bytes.subarray(0, sentBeforeKill)));
    const fileSize = () => {
      try {
        return statSync(storedFile).size;
      } catch {
        return 0;
      }
    };
    const end = Date.now() + 120_000;
    while (fileSize() < sentBeforeKill && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
    expect(fileSize()).toBe(sentBeforeKill);
    // Some participant writes were acknowledged before the kill (and more may be in flight).
    while (writes.acknowledged.length < 60 && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
    await kill(server);
    expect(await patch).toHaveProperty('error'); // the PATCH never got an answer
    await writes.stop();
    expect(writes.acknowledged.length).toBeGreaterThanOrEqual(60);

    server = await startServerProcess(site.env);
    try {
      const head = await fetch(`${server.url}${uploadPath}`, { method: 'HEAD', headers: { ...TUS, cookie } });
      expect(head.status).toBe(200);
      const offset = Number(head.headers.get('upload-offset'));
      expect(offset).toBe(sentBeforeKill);
      const rest = await fetch(`${server.url}${uploadPath}`, {
        method: 'PATCH',
        headers: {
          ...TUS,
          cookie,
          'upload-offset': String(offset),
          'content-type': 'application/offset+octet-stream',
        },
        body: new Uint8Array(bytes.subarray(offset)),
      });
      expect(rest.status).toBe(200);
      const { location, file_size } = (await rest.json()) as { location: string; file_size: number };
      expect(file_size).toBe(bytes.length);
      const stored = new Uint8Array(await (await fetch(location)).arrayBuffer());
      expect(sha256(stored)).toBe(sha256(bytes));
    } finally {
      expect(await server.stop()).toBe(0);
    }

    const missing = await withDatabase(site, (ctx) => writes.missing(ctx));
    expect(missing).toEqual([]);
    console.info(
      `[resilience] kill during upload (${process.env.TEST_DB}): ${bytes.length} bytes, killed at ${sentBeforeKill}, resumed byte-exact; ` +
        `${writes.attempted} participant writes tried, ${writes.acknowledged.length} acknowledged, 0 lost`,
    );
  }, 300_000);
});
