import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3ClientConfig } from '../../src/storage/s3-blob-store.js';
import { startCephS3, type CephS3 } from '../ceph-s3.js';
import { keepLogs, type TestAdmin } from '../harness.js';
import { testVideo } from '../media-helpers.js';
import { startWorkerProcess, type WorkerProcess } from '../process.js';
import { makeVideoSet } from '../programme-factories.js';
import {
  nginxMissing,
  parseProxyLog,
  proxyFetch,
  startBehindTlsProxy,
  type ProxyLogEntry,
  type TlsProxy,
} from '../tls-proxy.js';
import {
  insertDevices,
  kill,
  processSite,
  startServerProcess,
  waitForOutput,
  withDatabase,
  type ProcessSite,
  type ServerProcess,
} from './helpers.js';
import { describeLoad, MIXED_LOAD_ENV, MixedLoad, prepareMixedLoad, type LoadRequest } from './mixed-load.js';
import { requireOfMachine } from '../environment-guard.js';

// The scaled-out deployment: two `--role web` instances and one `--role worker` process on one
// PostgreSQL database and one S3 bucket (Ceph radosgw on loopback), behind Debian's nginx
// terminating TLS and balancing over both web instances with the documented nginx block
// (upstream with two servers, passive health checks, proxy_next_upstream). The mixed load of
// mixed-load.ts runs through the proxy with staff adding participants meanwhile, a real video is
// uploaded through the proxy into the bucket (its 8 MiB tus requests balanced over both
// instances) and its thumbnail made by the worker, and one web instance is killed with SIGKILL
// a third of the way into the load.
//
// What must hold: nginx routes on to the living instance (every request that starts after the
// kill is answered 2xx); every write acknowledged, before or after the kill, is in the database
// afterwards; no request fails except those the killed instance had been handed when it died. A
// POST or PATCH it had received may or may not have been applied when it died, so nginx cannot
// resend it to the other instance (that could apply it twice): it answers 502, and the client,
// which got no acknowledgement, tries again. Those are counted and printed apart; every other
// request (every one outside that moment) must be a 2xx, and no connection may fail.
//
// PostgreSQL project only: the embedded database serves one process, so scale-out needs
// PostgreSQL (and the run stays within CI's time). Speed is not asserted; figures are printed.
requireOfMachine(nginxMissing());

const DURATION_MS = 36_000;
const PARTICIPANTS = 300;
const ADMINS = 6;
const BUCKET = 'pathway-scale-out';
const TUS = { 'tus-resumable': '1.0.0' };
const CHUNK = 8 * 1024 * 1024; // what the console's uploader sends per request

describe('two web instances and a worker behind nginx, on PostgreSQL and S3 (PostgreSQL project only)', () => {
  let site: ProcessSite;
  let ceph: CephS3 | undefined;
  let s3: S3Client | undefined;
  let proxy: TlsProxy | undefined;
  let webs: ServerProcess[] = [];
  let worker: WorkerProcess | undefined;
  /** Each process has its own DATA_DIR (logs only: the database and media are shared services). */
  const processDirs: string[] = [];
  let admins: TestAdmin[];
  let cookie: string;
  let tablets: { uuid: string }[];
  let freeDevices: string[];
  let uploadSetId: number;
  let runningLoad: MixedLoad | undefined;

  const processDir = (name: string) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), `pathway-scale-out-${name}-`));
    processDirs.push(dir);
    return dir;
  };

  beforeAll(async () => {
    // Ceph takes a while to start: meanwhile, the database and the load's data.
    const starting = startCephS3().catch(() => startCephS3()); // a busy machine can miss a start window
    starting.catch(() => {});
    site = await processSite('scale-out');
    ({ admins, cookie, tablets, freeDevices, uploadSetId } = await withDatabase(site, async (ctx) => ({
      ...(await prepareMixedLoad(ctx, { participants: PARTICIPANTS, admins: ADMINS })),
      freeDevices: await insertDevices(ctx, 5000, 'Scale-out tablet'),
      uploadSetId: (
        await makeVideoSet(ctx.database.db, { weeks: 1, perWeek: 1, name: 'Uploaded through the proxy' })
      ).fitness_video_set_id,
    })));
    ceph = await starting;
    s3 = new S3Client(s3ClientConfig({ ...ceph, bucket: BUCKET, forcePathStyle: true }));
    await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));

    const env = {
      ...site.env,
      ...MIXED_LOAD_ENV,
      S3_ENDPOINT: ceph.endpoint,
      S3_BUCKET: BUCKET,
      S3_ACCESS_KEY_ID: ceph.accessKeyId,
      S3_SECRET_ACCESS_KEY: ceph.secretAccessKey,
      TRUST_PROXY: 'true',
    };
    let n = 0;
    ({ proxy, servers: webs } = await startBehindTlsProxy(2, (port, origin) =>
      startServerProcess(
        { ...env, DATA_DIR: processDir(`web${++n}`), PORT: String(port), PUBLIC_URL: origin },
        'web',
      ),
    ));
    worker = await startWorkerProcess({ ...env, DATA_DIR: processDir('worker'), PUBLIC_URL: proxy.origin });
  }, 480_000);

  afterAll(async () => {
    // A failed check leaves the load running: end it before what it calls goes away.
    runningLoad?.stop();
    await runningLoad?.finished;
    await Promise.all([...webs, ...(worker ? [worker] : [])].map((p) => p.stop()));
    await proxy?.stop();
    s3?.destroy();
    await ceph?.stop();
    for (const dir of processDirs) {
      keepLogs(dir);
      rmSync(dir, { recursive: true, force: true });
    }
    await site?.cleanup();
  });

  it('serves the mixed load with 0 errors, routes on when a web instance is killed, and loses no acknowledged write', async () => {
    const client = proxyFetch(proxy!);
    const origin = proxy!.origin;
    const [killed, survivor] = webs as [ServerProcess, ServerProcess];
    const video = testVideo({ seconds: 4, size: '640x480', noise: true }); // about 15 MB: two tus requests
    expect(video.length).toBeGreaterThan(CHUNK);

    const loadStartedAt = performance.now();
    const load = new MixedLoad({
      baseUrl: origin,
      fetch: client,
      durationMs: DURATION_MS,
      admins,
      cookie,
      tablets,
      freeDevices,
    });
    runningLoad = load;

    // Meanwhile staff upload a real video through the proxy into the bucket and save it on the set.
    const created = await client(`${origin}/companion`, {
      method: 'POST',
      headers: { ...TUS, cookie, 'upload-length': String(video.length) },
    });
    expect(created.status).toBe(201);
    const uploadUrl = created.headers.get('location')!;
    expect(uploadUrl.startsWith(`${origin}/companion/`)).toBe(true);
    let offset = 0;
    let finished: { location: string; file_size: number } | undefined;
    while (offset < video.length) {
      const res = await client(uploadUrl, {
        method: 'PATCH',
        headers: {
          ...TUS,
          cookie,
          'upload-offset': String(offset),
          'content-type': 'application/offset+octet-stream',
        },
        body: new Uint8Array(video.subarray(offset, offset + CHUNK)),
      });
      expect([200, 204], await res.clone().text()).toContain(res.status);
      offset = Number(res.headers.get('upload-offset'));
      if (res.status === 200) finished = (await res.json()) as typeof finished;
    }
    expect(finished?.file_size).toBe(video.length);
    const saved = await client(`${origin}/api/video`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({
        title: 'Seated marching',
        description: 'Uploaded through the proxy into the bucket',
        file_location_path: finished!.location,
        fitness_video_set_id: uploadSetId,
        week_number: 1,
        day_number: 1,
      }),
    });
    expect(saved.status, await saved.clone().text()).toBe(201);
    const { video_id: videoId } = (await saved.json()) as { video_id: number };

    // Once writes and views are acknowledged (a state of the load, not a time into it): SIGKILL one
    // web instance. The load must still have at least half its time to run after the kill.
    while (load.acknowledged.participants.length < 10 || load.acknowledged.views.length < 10) {
      if (performance.now() - loadStartedAt > DURATION_MS / 2)
        throw new Error(
          `only ${load.acknowledged.participants.length} participants and ${load.acknowledged.views.length} views acknowledged in half the load`,
        );
      await new Promise((r) => setTimeout(r, 100));
    }
    const killSentAt = performance.now();
    await kill(killed);
    const killSeenAt = performance.now();
    await load.finished;

    // The worker (the only process that runs jobs) made the thumbnail; it is served from the
    // bucket through the proxy, and so is the video, in Range requests.
    await waitForOutput(worker!, new RegExp(`"video_id":${videoId},.*"msg":"thumbnail made"`), 240_000);
    for (const web of webs) expect(web.output()).not.toMatch(/"msg":"thumbnail made"/);
    const shown = (await (
      await client(`${origin}/api/video/${videoId}`, { headers: { cookie } })
    ).json()) as {
      video_thumbnail_url: string;
      file_location_path: string;
    };
    expect(shown.video_thumbnail_url.startsWith(`${origin}/media/`)).toBe(true);
    const picture = await client(shown.video_thumbnail_url);
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toMatch(/^image\//);
    await picture.arrayBuffer();
    const range = await client(shown.file_location_path, { headers: { range: 'bytes=9000000-9065535' } });
    expect(range.status).toBe(206);
    expect(Buffer.from(await range.arrayBuffer()).equals(video.subarray(9_000_000, 9_065_536))).toBe(true);
    const objects = await s3!.send(new ListObjectsV2Command({ Bucket: BUCKET }));
    const keys = (objects.Contents ?? []).map((o) => o.Key!);
    expect(keys).toContain(new URL(shown.file_location_path).pathname.replace(/^\/media\//, ''));
    expect(keys).toContain(new URL(shown.video_thumbnail_url).pathname.replace(/^\/media\//, ''));

    // Which instance nginx gave each request to, from its access log (the load numbers its requests).
    const log = parseProxyLog(proxy!.accessLog());
    const byLoadRequest = new Map(
      log.filter((e) => e.loadRequest !== undefined).map((e) => [e.loadRequest!, e] as const),
    );
    const killedAddress = `127.0.0.1:${killed.port}`;
    const survivorAddress = `127.0.0.1:${survivor.port}`;
    /**
     * Handed to the killed instance when it died: nginx had given it to that instance (its last
     * try), the request was sent before the process was gone and answered after the kill.
     */
    const inFlightAtKill = (r: LoadRequest, entry: ProxyLogEntry | undefined) =>
      entry !== undefined &&
      entry.upstreams.at(-1) === killedAddress &&
      r.startedAt < killSeenAt &&
      r.endedAt >= killSentAt;
    const failures = load.failures;
    const atKill = failures.filter((r) => inFlightAtKill(r, byLoadRequest.get(r.id)));
    const otherErrors = failures.filter((r) => !atKill.includes(r));
    const noAnswer = failures.filter((r) => r.status === 0);
    const after = load.requests.filter((r) => r.startedAt >= killSeenAt);
    const served = (address: string, from: number, to: number) =>
      load.requests.filter(
        (r) =>
          r.startedAt >= from && r.startedAt < to && byLoadRequest.get(r.id)?.upstreams.at(-1) === address,
      ).length;
    // Requests nginx tried on the killed instance first and then gave to the other: those in
    // flight at the kill (a GET), and those refused by the dead instance when nginx tried it again.
    const passedOn = log.filter((e) => e.upstreams.length > 1 && e.upstreams[0] === killedAddress);
    const requestOf = new Map(load.requests.map((r) => [r.id, r]));
    const passedOnInFlight = passedOn
      .map((e) => requestOf.get(e.loadRequest ?? -1))
      .filter((r): r is LoadRequest => r !== undefined && r.startedAt < killSeenAt);
    const acknowledged = (kind: LoadRequest['kind'], from: number, to: number) =>
      load.requests.filter(
        (r) => r.kind === kind && r.status >= 200 && r.status < 300 && r.endedAt >= from && r.endedAt < to,
      ).length;

    // Every instance is stopped (the survivor and the worker cleanly), then the database is read.
    expect(await survivor.stop()).toBe(0);
    expect(await worker!.stop()).toBe(0);
    const missing = await withDatabase(site, (ctx) => load.missingWrites(ctx));

    const byMethod = (list: LoadRequest[]) =>
      [...new Set(list.map((r) => r.what))]
        .map((w) => `${w} ${list.filter((r) => r.what === w).length}`)
        .join(', ') || 'none';
    console.info(
      `[resilience] scale-out (postgres, S3 on radosgw, nginx TLS over 2 web instances + 1 worker, ${DURATION_MS / 1000} s, ${load.loops} loops): ` +
        `${describeLoad(load.requests)}; ` +
        `nginx gave the killed instance ${served(killedAddress, 0, killSentAt)} and the other ${served(survivorAddress, 0, killSentAt)} before the kill (at ${((killSentAt - loadStartedAt) / 1000).toFixed(1)} s), ` +
        `${after.length} requests after it (${after.filter((r) => r.status >= 200 && r.status < 300).length} x 2xx), ` +
        `${passedOn.length} passed on from the killed instance to the other (${passedOnInFlight.length} of them in flight at the kill: ${byMethod(passedOnInFlight)}); ` +
        `in flight on the killed instance at the kill and failed: ${atKill.length} (${byMethod(atKill)}, statuses ${[...new Set(atKill.map((r) => r.status))].join('/') || '-'}); ` +
        `errors outside the kill: ${otherErrors.length}, failed connections ${noAnswer.length}; ` +
        `acknowledged participants ${acknowledged('add participant', 0, killSentAt)} before the kill + ${acknowledged('add participant', killSentAt, Infinity)} after, ` +
        `views ${load.acknowledged.views.length}: missing ${missing.participants.length + missing.views.length}; ` +
        `video ${video.length} bytes uploaded through the proxy in ${Math.ceil(video.length / CHUNK)} tus requests to S3, thumbnail by the worker`,
    );

    expect(otherErrors.map((r) => ({ ...r, proxy: byLoadRequest.get(r.id) }))).toEqual([]);
    expect(noAnswer).toEqual([]);
    expect(after.length).toBeGreaterThan(0);
    expect(after.filter((r) => r.status < 200 || r.status > 299)).toEqual([]);
    expect(served(killedAddress, 0, killSentAt)).toBeGreaterThan(0);
    expect(served(survivorAddress, 0, killSentAt)).toBeGreaterThan(0);
    expect(acknowledged('add participant', killSentAt, Infinity)).toBeGreaterThan(0);
    for (const kind of ['sign-in', 'grid', 'dashboard', 'tablet', 'add participant'] as const)
      expect(load.requests.filter((r) => r.kind === kind).length, kind).toBeGreaterThan(0);
    expect(missing).toEqual({ participants: [], views: [] });
  }, 300_000);
});
