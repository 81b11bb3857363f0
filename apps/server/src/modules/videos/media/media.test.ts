import { readdirSync, readlinkSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedInCookie, type TestApp } from '../../../../test/harness.js';
import { testVideo, uploadThroughTus } from '../../../../test/media-helpers.js';
import { parseRange } from './routes.js';

let t: TestApp;
let bytes: Buffer;
let url: string;

beforeAll(async () => {
  t = await createTestApp();
  const { cookie } = await signedInCookie(t.ctx, 'basic access');
  bytes = testVideo({ seconds: 3 });
  const uploaded = await uploadThroughTus(t.app, cookie, bytes);
  url = new URL(uploaded.body.location!).pathname;
});
afterAll(async () => {
  // A client socket that never sent a request is not idle to Node: it would hold the close.
  t.app.server.closeAllConnections();
  await t.close();
});

// No credentials: the tablet app downloads these URLs as they are.
const get = (headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET', path = url) =>
  t.app.inject({ method, url: path, headers });

describe('media', () => {
  it('serves a whole video with its type, length and caching headers', async () => {
    const res = await get();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('video/mp4');
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(Number(res.headers['content-length'])).toBe(bytes.length);
    expect(res.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expect(Buffer.compare(res.rawPayload, bytes)).toBe(0);
  });

  it('serves byte ranges: start-end, open-ended and suffix', async () => {
    const cases: [string, number, number][] = [
      ['bytes=0-99', 0, 99],
      ['bytes=1000-', 1000, bytes.length - 1],
      ['bytes=-500', bytes.length - 500, bytes.length - 1],
      [`bytes=10-${bytes.length + 5000}`, 10, bytes.length - 1],
    ];
    for (const [range, start, end] of cases) {
      const res = await get({ range });
      expect(res.statusCode, range).toBe(206);
      expect(res.headers['content-range'], range).toBe(`bytes ${start}-${end}/${bytes.length}`);
      expect(Number(res.headers['content-length']), range).toBe(end - start + 1);
      expect(Buffer.compare(res.rawPayload, bytes.subarray(start, end + 1)), range).toBe(0);
    }
  });

  it('reassembles the file from consecutive ranges, as a seeking player or a resumed download does', async () => {
    const parts: Buffer[] = [];
    for (let start = 0; start < bytes.length; start += 7000) {
      const res = await get({ range: `bytes=${start}-${Math.min(start + 6999, bytes.length - 1)}` });
      parts.push(res.rawPayload);
    }
    expect(Buffer.compare(Buffer.concat(parts), bytes)).toBe(0);
  });

  it('answers 416 for a range past the end, and the whole file for forms it does not serve', async () => {
    const past = await get({ range: `bytes=${bytes.length}-` });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${bytes.length}`);
    expect(past.json().message).toMatch(/range/);
    for (const range of ['bytes=0-10,20-30', 'items=0-10', 'bytes=50-10']) {
      const res = await get({ range });
      expect(res.statusCode, range).toBe(200);
      expect(res.rawPayload.length, range).toBe(bytes.length);
    }
  });

  it('honours If-Range and If-None-Match, and answers HEAD without a body', async () => {
    const etag = (await get()).headers.etag as string;
    expect((await get({ range: 'bytes=0-9', 'if-range': etag })).statusCode).toBe(206);
    const stale = await get({ range: 'bytes=0-9', 'if-range': '"something-else"' });
    expect(stale.statusCode).toBe(200);
    expect(stale.rawPayload.length).toBe(bytes.length);
    expect((await get({ 'if-none-match': etag })).statusCode).toBe(304);
    const head = await get({}, 'HEAD');
    expect(head.statusCode).toBe(200);
    expect(Number(head.headers['content-length'])).toBe(bytes.length);
    expect(head.rawPayload.length).toBe(0);
    const headRange = await get({ range: 'bytes=0-9' }, 'HEAD');
    expect(headRange.statusCode).toBe(206);
    expect(headRange.headers['content-range']).toBe(`bytes 0-9/${bytes.length}`);
  });

  it('closes every file it opens, and every response ends', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    const openFiles = () =>
      readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`).startsWith(t.config.mediaDir);
        } catch {
          return false;
        }
      }).length;
    let unfinished = 0;
    t.app.server.on('request', (_req, res) => {
      unfinished += 1;
      res.on('close', () => (unfinished -= 1));
    });
    const before = openFiles();
    for (let i = 0; i < 40; i++) {
      const res = await fetch(`${base}${url}`, { headers: i % 2 ? { range: `bytes=${i}-${i + 1000}` } : {} });
      expect(res.status).toBeLessThan(300);
      await res.arrayBuffer();
    }
    await expect.poll(() => unfinished).toBe(0);
    expect(before).toBe(0);
    // A stream's descriptor is closed asynchronously after its response ends: wait for it, as a
    // leak would never get there.
    await expect.poll(openFiles, { timeout: 120_000 }).toBe(0);
  });

  it('serves nothing but finished uploads and made pictures', async () => {
    const key = url.replace('/media/', '');
    for (const path of [
      '/media/uploads/' + '0'.repeat(32),
      `/media/${key}.json`,
      '/media/thumbs/missing.jpg',
      '/media/thumbs/not-a-picture.txt',
      '/media/',
      '/media/db/PG_VERSION',
    ]) {
      const res = await get({}, 'GET', path);
      expect(res.statusCode, path).toBe(404);
      expect(res.json().message, path).toBe('Not found');
    }
    // Dot segments are resolved before routing: the path leaves /media and is never a stored file.
    for (const path of ['/media/uploads/../../logs/x', '/media/%2e%2e/db/PG_VERSION']) {
      const traversal = await get({}, 'GET', path);
      // The console's page (SPA fallback) or a JSON 404: never a file from the data directory.
      expect(String(traversal.headers['content-type']), path).toMatch(/^(text\/html|application\/json)/);
    }
  });
});

describe('parseRange', () => {
  it('reads the forms of RFC 9110 against a size', () => {
    expect(parseRange(undefined, 100)).toBeNull();
    expect(parseRange('bytes=0-0', 100)).toEqual({ start: 0, end: 0 });
    expect(parseRange('bytes=99-', 100)).toEqual({ start: 99, end: 99 });
    expect(parseRange('bytes=-1', 100)).toEqual({ start: 99, end: 99 });
    expect(parseRange('bytes=-1000', 100)).toEqual({ start: 0, end: 99 });
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-', 0)).toBe('unsatisfiable');
    expect(parseRange('bytes=-', 100)).toBeNull();
    expect(parseRange('bytes=5-2', 100)).toBeNull();
  });
});
