import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAdmin } from '../harness.js';
import {
  processSite,
  startServerProcess,
  withDatabase,
  type ProcessSite,
  type ServerProcess,
} from './helpers.js';
import { describeLoad, MIXED_LOAD_ENV, MixedLoad, prepareMixedLoad } from './mixed-load.js';

// A bounded mixed load on loopback for 60 s against a real server process: staff signing in
// (password + a fresh TOTP code each time), paging the participant grid, opening the dashboard,
// and tablets running their calls (device sign-in, today's videos, progress, thumbnails, summary,
// views reported): the shared generator in mixed-load.ts. Every answer must be a 2xx and no
// connection may fail.
//
// It runs once, in the PGlite project: the embedded database is the default deployment and the
// tighter one (one connection for everything), and 60 s is too long to spend twice in CI. Speed is
// not asserted here (npm run bench measures it); the figures are printed for the README.
const DURATION_MS = 60_000;
const PARTICIPANTS = 300;
const ADMINS = 6;
const GRID_LOOPS = 3;
const TABLET_LOOPS = 3;

describe('mixed load for 60 s (PGlite project only)', () => {
  let site: ProcessSite;
  let server: ServerProcess;
  let admins: TestAdmin[];
  let cookie: string;
  let tablets: { uuid: string }[];

  beforeAll(async () => {
    site = await processSite('mixed-load');
    ({ admins, cookie, tablets } = await withDatabase(site, (ctx) =>
      prepareMixedLoad(ctx, { participants: PARTICIPANTS, admins: ADMINS }),
    ));
    server = await startServerProcess({ ...site.env, ...MIXED_LOAD_ENV });
  }, 300_000);
  afterAll(async () => {
    await server?.stop();
    await site?.cleanup();
  });

  it('answers every request with a 2xx for 60 s', async () => {
    const load = new MixedLoad({
      baseUrl: server.url,
      durationMs: DURATION_MS,
      admins,
      cookie,
      tablets,
      gridLoops: GRID_LOOPS,
      tabletLoops: TABLET_LOOPS,
    });
    await load.finished;

    const signIns = load.requests.filter((r) => r.kind === 'sign-in').length;
    console.info(
      `[resilience] mixed load 60 s (pglite, ${load.loops} loops): ${describeLoad(load.requests)}; ${load.failures.length} errors`,
    );
    expect(load.failures.slice(0, 10)).toEqual([]);
    expect(signIns).toBeGreaterThan(ADMINS); // signed in again in a later TOTP step
    for (const kind of ['sign-in', 'grid', 'dashboard', 'tablet'] as const)
      expect(load.requests.filter((r) => r.kind === kind).length, kind).toBeGreaterThan(0);
    expect(server.child.exitCode).toBeNull();
  }, 300_000);
});
