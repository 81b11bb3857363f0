import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/rows.js';
import { totpCode } from '../../src/modules/auth/totp.js';
import { createAdmin, signedInCookie, type TestAdmin } from '../harness.js';
import { makeVideoSet, makeVideos } from '../programme-factories.js';
import {
  insertEnrolledParticipants,
  processSite,
  startServerProcess,
  withDatabase,
  type ProcessSite,
  type ServerProcess,
} from './helpers.js';

// A bounded mixed load on loopback for 60 s against a real server process: staff signing in
// (password + a fresh TOTP code each time), paging the participant grid, opening the dashboard,
// and tablets running their calls (device sign-in, today's videos, progress, thumbnails, summary,
// views reported). Every answer must be a 2xx and no connection may fail.
//
// It runs once, in the PGlite project: the embedded database is the default deployment and the
// tighter one (one connection for everything), and 60 s is too long to spend twice in CI. Speed is
// not asserted here (npm run bench measures it); the figures are printed for the README.
const enabled = process.env.TEST_DB === 'pglite';
const DURATION_MS = 60_000;
const PARTICIPANTS = 300;
const ADMINS = 6;
const GRID_LOOPS = 3;
const TABLET_LOOPS = 3;

type Kind = 'sign-in' | 'grid' | 'dashboard' | 'tablet';
interface Failure {
  kind: Kind;
  what: string;
  status: number;
  body: string;
}

describe.skipIf(!enabled)('mixed load for 60 s (PGlite project only)', () => {
  let site: ProcessSite;
  let server: ServerProcess;
  let admins: TestAdmin[];
  let cookie: string;
  let tablets: { uuid: string }[];

  beforeAll(async () => {
    site = await processSite('mixed-load');
    const prepared = await withDatabase(site, async (ctx) => {
      const today = new Date().toISOString().slice(0, 10);
      const set = await makeVideoSet(ctx.db, { weeks: 4, perWeek: 5 });
      await makeVideos(ctx.db, set);
      // Started a few days ago at different points, so grid pages, dashboard and summaries have something to show.
      const ids = await insertEnrolledParticipants(ctx, {
        count: PARTICIPANTS,
        setId: set.fitness_video_set_id,
        today,
        startedDaysAgo: 9,
        tag: 'load',
      });
      const accounts: TestAdmin[] = [];
      for (let i = 0; i < ADMINS; i++)
        accounts.push(await createAdmin(ctx, i % 2 ? 'basic access' : 'full access'));
      const session = (await signedInCookie(ctx, 'full access')).cookie;
      const devices = rowsOf<{ uuid: string }>(
        await ctx.db.execute(sql`
          select d.uuid from authorized_devices d join participants p on p.authorized_device_id = d.authorized_device_id
          where p.participant_id between ${ids[0]!} and ${ids.at(-1)!}`),
      );
      return { accounts, session, tablets: devices };
    });
    admins = prepared.accounts;
    cookie = prepared.session;
    tablets = prepared.tablets;
    // Every tablet of the load runs from one address, far above a real tablet's rate.
    server = await startServerProcess({
      ...site.env,
      DEVICE_RATE_LIMIT_PER_DEVICE: '1000000',
      DEVICE_RATE_LIMIT_PER_ADDRESS: '1000000',
    });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await site?.cleanup();
  });

  it('answers every request with a 2xx for 60 s', async () => {
    const counts: Record<Kind, number> = { 'sign-in': 0, grid: 0, dashboard: 0, tablet: 0 };
    const failures: Failure[] = [];
    const endAt = Date.now() + DURATION_MS;

    /** One request; anything but the expected 2xx (or no answer at all) is a failure. */
    const perEndpoint = new Map<string, number>();
    const call = async (
      kind: Kind,
      what: string,
      path: string,
      init: RequestInit = {},
    ): Promise<Response | undefined> => {
      counts[kind]++;
      perEndpoint.set(what, (perEndpoint.get(what) ?? 0) + 1);
      try {
        const res = await fetch(`${server.url}${path}`, { ...init, signal: AbortSignal.timeout(30_000) });
        if (res.status < 200 || res.status > 299) {
          failures.push({ kind, what, status: res.status, body: (await res.text()).slice(0, 200) });
          return undefined;
        }
        return res;
      } catch (error) {
        failures.push({ kind, what, status: 0, body: (error as Error).message });
        return undefined;
      }
    };

    // Sign-in: each admin once per 30 s TOTP step (a code works once), with the real code of now.
    const lastStep = new Map<number, number>();
    const signIns = async () => {
      while (Date.now() < endAt) {
        const step = Math.floor(Date.now() / 30_000);
        const admin = admins.find((a) => (lastStep.get(a.admin_user_id) ?? -1) < step);
        if (!admin) {
          await new Promise((r) => setTimeout(r, 100));
          continue;
        }
        lastStep.set(admin.admin_user_id, step);
        const res = await call('sign-in', 'POST /login', '/login', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            user_name: admin.user_name,
            password: admin.password,
            mfa_token: totpCode(admin.user_name, admin.totpSecret),
          }),
        });
        const session = res?.headers.get('set-cookie')?.split(';')[0];
        if (res && session)
          await call('sign-in', 'GET /api/session', '/api/session', { headers: { cookie: session } });
      }
    };

    const sorts = ['participant_id', 'days_behind', 'last_name', 'date_of_birth'];
    const grid = async (n: number) => {
      for (let i = n; Date.now() < endAt; i++) {
        const page = (i % 10) + 1;
        const query = `page=${page}&perPage=25&sort=${sorts[i % sorts.length]}&order=${i % 2 ? 'desc' : 'asc'}${i % 3 === 0 ? '&state=behind' : ''}`;
        await call('grid', 'GET /api/participant', `/api/participant?${query}`, { headers: { cookie } });
      }
    };

    const dashboard = async () => {
      while (Date.now() < endAt)
        await call('dashboard', 'GET /api/dashboard', '/api/dashboard', { headers: { cookie } });
    };

    const tablet = async (n: number) => {
      for (let i = n; Date.now() < endAt; i += TABLET_LOOPS) {
        const { uuid } = tablets[i % tablets.length]!;
        const res = await call('tablet', 'GET /uuid/:id', `/uuid/${uuid}`);
        if (!res) continue;
        const me = (await res.json()) as {
          auth_token: string;
          participant_id: number;
          fitness_video_sets: { fitness_video_set_id: number };
          fitness_participation_progress: { fitness_participation_progress_id: number };
          videos: { video_id: number; week_number: number; day_number: number }[];
        };
        const bearer = { authorization: `Bearer ${me.auth_token}` };
        const setId = me.fitness_video_sets.fitness_video_set_id;
        const pid = me.participant_id;
        await call('tablet', 'PATCH /uuid/:id', `/uuid/${uuid}`, {
          method: 'PATCH',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: `push_notification_id=load-token-${uuid}`,
        });
        await call('tablet', 'PATCH /api/participant/:id', `/api/participant/${pid}`, {
          method: 'PATCH',
          headers: { ...bearer, 'content-type': 'application/x-www-form-urlencoded' },
          body: 'purge_cache=false',
        });
        const today = await call('tablet', 'GET today', `/api/videoset/today/${setId}/participant/${pid}`, {
          headers: bearer,
        });
        const available = today
          ? ((await today.json()) as { video_id: number; week_number: number; day_number: number }[])
          : [];
        await call(
          'tablet',
          'GET progress',
          `/api/participationprogress/${me.fitness_participation_progress.fitness_participation_progress_id}`,
          { headers: bearer },
        );
        await call('tablet', 'GET thumbs', `/api/video/thumbs/${setId}`, { headers: bearer });
        const watched = available[i % Math.max(1, available.length)];
        if (watched) {
          await call('tablet', 'POST view', `/api/videoset/view/${setId}/participant/${pid}`, {
            method: 'POST',
            headers: { ...bearer, 'content-type': 'application/json' },
            body: JSON.stringify({
              day: String(watched.day_number),
              week: String(watched.week_number),
              videoIds: [String(watched.video_id)],
            }),
          });
        }
        await call('tablet', 'GET summary', `/api/summary/${setId}/participant/${pid}`, { headers: bearer });
      }
    };

    await Promise.all([
      signIns(),
      dashboard(),
      ...Array.from({ length: GRID_LOOPS }, (_, n) => grid(n)),
      ...Array.from({ length: TABLET_LOOPS }, (_, n) => tablet(n)),
    ]);

    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    console.info(
      `[resilience] mixed load 60 s (pglite, ${1 + 1 + GRID_LOOPS + TABLET_LOOPS} loops): ${total} requests ` +
        `(sign-in ${counts['sign-in']}, grid ${counts.grid}, dashboard ${counts.dashboard}, tablet ${counts.tablet}), ${failures.length} errors; ` +
        [...perEndpoint].map(([what, n]) => `${what} ${n}`).join(', '),
    );
    expect(failures.slice(0, 10)).toEqual([]);
    expect(counts['sign-in']).toBeGreaterThan(ADMINS); // signed in again in a later TOTP step
    expect(Math.min(...Object.values(counts))).toBeGreaterThan(0);
    expect(server.child.exitCode).toBeNull();
  }, 180_000);
});
