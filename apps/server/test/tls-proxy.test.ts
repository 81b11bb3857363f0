import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THUMBNAIL_PROCESSING } from '@pathway/contract';
import { rowsOf } from '../src/db/rows.js';
import { totpCode } from '../src/modules/auth/totp.js';
import { createAdmin, keepLogs, type TestAdmin } from './harness.js';
import { eventually, testVideo } from './media-helpers.js';
import { makeDevice, makeParticipant, makeProgress, makeVideoSet } from './programme-factories.js';
import {
  processSite,
  startServerProcess,
  withDatabase,
  type ProcessSite,
  type ServerProcess,
} from './resilience/helpers.js';
import { nginxMissing, proxyFetch, startBehindTlsProxy, type TlsProxy } from './tls-proxy.js';
import { requireOfMachine } from './environment-guard.js';

// The deployment every real site has: Debian's nginx terminating TLS (a certificate this test makes)
// in front of the real server process, configured with the documented nginx block (docs/operations.md), the server
// with TRUST_PROXY=true and an https PUBLIC_URL. Every call below goes through the proxy over TLS,
// from 127.0.0.77 (nginx itself reaches the server from 127.0.0.1), each carrying a forged
// X-Forwarded-For the proxy must replace.
requireOfMachine(nginxMissing());

const CLIENT_ADDRESS = '127.0.0.77';
const FORGED = { 'x-forwarded-for': '198.51.100.23' };
const TUS = { 'tus-resumable': '1.0.0' };
const CHUNK = 8 * 1024 * 1024; // what the console's uploader sends per request

describe('behind a TLS-terminating nginx', () => {
  let site: ProcessSite;
  let proxy: TlsProxy;
  let server: ServerProcess;
  let client: typeof fetch;
  let admin: TestAdmin;
  let setId: number;
  let deviceUuid: string;
  let participantId: number;
  let cookie = '';

  beforeAll(async () => {
    site = await processSite('tls-proxy');
    const prepared = await withDatabase(site, async (ctx) => {
      const set = await makeVideoSet(ctx.database.db, { weeks: 1, perWeek: 1, name: 'Behind the proxy' });
      const device = await makeDevice(ctx.database.db);
      const participant = await makeParticipant(ctx.database.db, { deviceId: device.authorized_device_id });
      await makeProgress(ctx.database.db, participant.participant_id, set.fitness_video_set_id, {
        started_date: new Date().toISOString().slice(0, 10),
      });
      return {
        admin: await createAdmin(ctx, 'full access'),
        setId: set.fitness_video_set_id,
        deviceUuid: device.uuid,
        participantId: participant.participant_id,
      };
    });
    ({ admin, setId, deviceUuid, participantId } = prepared);
    let servers: ServerProcess[];
    ({ proxy, servers } = await startBehindTlsProxy(1, (port, origin) =>
      startServerProcess({ ...site.env, PORT: String(port), TRUST_PROXY: 'true', PUBLIC_URL: origin }),
    ));
    server = servers[0]!;
    client = proxyFetch(proxy, CLIENT_ADDRESS);
  }, 300_000);

  afterAll(async () => {
    await server?.stop();
    await proxy?.stop();
    if (site) keepLogs(site.dataDir);
    await site?.cleanup();
  });

  it('signs the console in with a Secure session cookie', async () => {
    const res = await client(`${proxy.origin}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...FORGED },
      body: JSON.stringify({
        user_name: admin.user_name,
        password: admin.password,
        mfa_token: totpCode(admin.user_name, admin.totpSecret),
      }),
    });
    expect(res.status).toBe(200);
    const setCookie = res.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/;\s*Secure/i);
    expect(setCookie).toMatch(/;\s*HttpOnly/i);
    expect(res.headers.get('strict-transport-security')).toBeTruthy();
    cookie = setCookie.split(';')[0]!;
    const session = await client(`${proxy.origin}/api/session`, { headers: { cookie } });
    expect(session.status).toBe(200);
    expect(await session.json()).toMatchObject({ user_name: admin.user_name });
  });

  it('passes an upload of several MiB in 8 MiB tus requests; tablets get https URLs that serve Range requests', async () => {
    expect(cookie).not.toBe('');
    // Noise does not compress: about 12 MB, so more than one of the uploader's 8 MiB requests.
    const bytes = testVideo({ seconds: 4, size: '640x480', noise: true });
    expect(bytes.length).toBeGreaterThan(CHUNK + 1024 * 1024);

    const created = await client(`${proxy.origin}/companion`, {
      method: 'POST',
      headers: { ...TUS, cookie, 'upload-length': String(bytes.length) },
    });
    expect(created.status).toBe(201);
    const uploadUrl = created.headers.get('location')!;
    expect(uploadUrl.startsWith(`${proxy.origin}/companion/`)).toBe(true);
    let offset = 0;
    let finished: { location: string; file_size: number } | undefined;
    while (offset < bytes.length) {
      const res = await client(uploadUrl, {
        method: 'PATCH',
        headers: {
          ...TUS,
          cookie,
          'upload-offset': String(offset),
          'content-type': 'application/offset+octet-stream',
        },
        body: new Uint8Array(bytes.subarray(offset, offset + CHUNK)),
      });
      expect([200, 204], await res.clone().text()).toContain(res.status);
      offset = Number(res.headers.get('upload-offset'));
      if (res.status === 200) finished = (await res.json()) as typeof finished;
    }
    expect(finished?.file_size).toBe(bytes.length);
    expect(finished!.location.startsWith(`${proxy.origin}/media/uploads/`)).toBe(true);

    const saved = await client(`${proxy.origin}/api/video`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({
        title: 'Chair squats',
        description: 'Through the proxy',
        file_location_path: finished!.location,
        fitness_video_set_id: setId,
        week_number: 1,
        day_number: 1,
      }),
    });
    expect(saved.status, await saved.clone().text()).toBe(201);

    // The tablet, as the app does it: register, then today's video and the set's thumbnails.
    const me = await client(`${proxy.origin}/uuid/${deviceUuid}`, { headers: FORGED });
    expect(me.status).toBe(200);
    const { auth_token } = (await me.json()) as { auth_token: string };
    const bearer = { authorization: `Bearer ${auth_token}` };
    const today = await client(`${proxy.origin}/api/videoset/today/${setId}/participant/${participantId}`, {
      headers: bearer,
    });
    const [video] = (await today.json()) as { file_location_path: string }[];
    expect(video!.file_location_path.startsWith(`${proxy.origin}/media/`)).toBe(true);

    // The thumbnail job runs real ffmpeg: wait for its result, however long a busy machine takes.
    const thumbnail = await eventually(async () => {
      const res = await client(`${proxy.origin}/api/video/thumbs/${setId}`, { headers: bearer });
      const weeks = (await res.json()) as Record<string, { video_thumbnail_url: string | null }[]>;
      const url = weeks['1']?.[0]?.video_thumbnail_url;
      return url && url !== THUMBNAIL_PROCESSING ? url : undefined;
    }, 300_000);
    expect(thumbnail.startsWith(`${proxy.origin}/media/`)).toBe(true);
    const picture = await client(thumbnail);
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toMatch(/^image\//);

    // The player's Range requests (VLC) through the proxy: 206 and exactly the bytes asked for.
    const from = 5 * 1024 * 1024 + 17;
    const to = from + 65_535;
    const range = await client(video!.file_location_path, { headers: { range: `bytes=${from}-${to}` } });
    expect(range.status).toBe(206);
    expect(range.headers.get('content-range')).toBe(`bytes ${from}-${to}/${bytes.length}`);
    expect(Buffer.from(await range.arrayBuffer()).equals(bytes.subarray(from, to + 1))).toBe(true);
    const whole = await client(video!.file_location_path);
    expect(whole.status).toBe(200);
    expect(Number(whole.headers.get('content-length'))).toBe(bytes.length);
    await whole.body?.cancel();
  }, 300_000);

  it("records and logs the clients' own addresses, not the proxy's nor a forged header's", async () => {
    // The console shows the tablet's last address: the one nginx saw, not the forged one.
    const shown = await client(`${proxy.origin}/api/participant/${participantId}`, { headers: { cookie } });
    expect(shown.status).toBe(200);
    expect(await shown.json()).toMatchObject({ last_ip_address: CLIENT_ADDRESS });

    expect(proxy.accessLog()).toContain(`${CLIENT_ADDRESS} - -`);
    const logDir = path.join(site.dataDir, 'logs');
    const requests = readdirSync(logDir)
      .flatMap((f) => readFileSync(path.join(logDir, f), 'utf8').split('\n'))
      .filter((line) => line.includes('"remoteAddress"'))
      .map((line) => (JSON.parse(line) as { req?: { remoteAddress?: string } }).req?.remoteAddress);
    expect(requests.length).toBeGreaterThan(5);
    expect(new Set(requests)).toEqual(new Set([CLIENT_ADDRESS]));

    // The session records where the sign-in came from.
    expect(await server.stop()).toBe(0);
    const ips = await withDatabase(site, async (ctx) =>
      rowsOf<{ ip: string }>(await ctx.database.db.execute(sql`select ip from sessions`)).map((r) => r.ip),
    );
    expect(ips).toEqual([CLIENT_ADDRESS]);
    console.info(
      `[tls-proxy] nginx (documented config) over TLS: Secure cookie, ${requests.length} requests logged from ${CLIENT_ADDRESS}, ` +
        `upload through /companion in 8 MiB requests, https media and thumbnail URLs, Range 206`,
    );
  });
});
