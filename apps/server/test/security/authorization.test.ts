import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDENTIFIABLE_FIELDS } from '@pathway/contract';
import { webDistDir } from '../../src/plugins/web.js';
import { createTestApp, signedInCookie, type TestApp } from '../harness.js';
import { makeEnrolledParticipant } from '../programme-factories.js';
import {
  AUTHORIZATION_MATRIX,
  CALLER_ROLES,
  CALLERS,
  rowFor,
  type Caller,
  type MatrixRow,
  type World,
} from './authorization-matrix.js';
import { seedWorld, type SeededWorld } from './world.js';

let t: TestApp;
let world: World;
const appRoutes: Array<{ method: string; url: string; access: string; permission: string | undefined }> = [];
let credentials: SeededWorld['credentials'];
let identifiableValues: string[];

beforeAll(async () => {
  t = await createTestApp({
    onRoute: (route: RouteOptions) => {
      // A route outside the API scope (health, the console's files, media) declares nothing: public.
      const access = route.config?.access ?? 'public';
      const permission = route.config?.permission;
      for (const method of [route.method].flat())
        appRoutes.push({ method, url: route.url, access, permission });
    },
  });
  ({ world, credentials, identifiableValues } = await seedWorld(t));
});
afterAll(() => t.close());

/** JSON keys anywhere in a value. */
function keysOf(value: unknown): string[] {
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => [k, ...keysOf(v)]);
}

async function callAs(row: MatrixRow, method: string, caller: Caller) {
  const call = await row.call(world, caller);
  let auth = credentials[caller];
  if (row.endsSession && caller !== 'anonymous' && caller !== 'device') {
    const { role, systemAdministrator } = CALLER_ROLES[caller];
    auth = {
      cookie: (await signedInCookie(t.ctx, role, { system_administrator: systemAdministrator })).cookie,
    };
  }
  return t.app.inject({
    method: method as 'GET',
    url: call.url,
    headers: { ...call.headers, ...auth },
    ...(call.payload !== undefined ? { payload: call.payload as string } : {}),
  });
}

describe('the authorization matrix', () => {
  it('lists every route of the app, and only those', () => {
    expect(appRoutes.length).toBeGreaterThan(50);
    const missing = appRoutes.filter((r) => !rowFor(r.method, r.url)).map((r) => `${r.method} ${r.url}`);
    expect(missing, 'routes of the app missing from the authorization matrix').toEqual([]);
    const consoleBuilt = existsSync(path.join(webDistDir, 'index.html'));
    const stale = AUTHORIZATION_MATRIX.filter((row) => consoleBuilt || !row.onlyWithConsoleBuild)
      .filter((row) => !appRoutes.some((r) => r.method === row.method && r.url === row.url))
      .map((r) => `${r.method} ${r.url}`);
    expect(stale, 'matrix rows naming routes the app no longer has').toEqual([]);
    const undeclared = appRoutes
      .filter((r) => {
        const row = rowFor(r.method, r.url);
        return row && (row.declared.access !== r.access || row.declared.permission !== r.permission);
      })
      .map((r) => `${r.method} ${r.url} declares ${r.access}${r.permission ? ` ${r.permission}` : ''}`);
    expect(undeclared, 'routes declaring other access than their row of the matrix').toEqual([]);
    const seen = new Set<string>();
    for (const row of AUTHORIZATION_MATRIX) {
      const key = `${row.method} ${row.url}`;
      expect(seen.has(key), `${key} is listed twice`).toBe(false);
      seen.add(key);
    }
  });

  it('answers every route as the table says, for every kind of caller', async () => {
    const failures: string[] = [];
    let calls = 0;
    let basicAnswersChecked = 0;
    for (const route of appRoutes) {
      const row = rowFor(route.method, route.url);
      if (!row) continue; // reported by the test above
      for (const caller of CALLERS) {
        const res = await callAs(row, route.method, caller);
        calls += 1;
        const expected = row.who[caller];
        const label = `${route.method} ${route.url} as ${caller}: ${res.statusCode} ${res.body.slice(0, 160)}`;
        if (res.statusCode >= 500) failures.push(`${label} (a server error)`);
        else if (expected === 'ok' && (res.statusCode === 401 || res.statusCode === 403))
          failures.push(`${label} (expected to be served)`);
        else if (expected !== 'ok' && res.statusCode !== expected)
          failures.push(`${label} (expected ${expected})`);
        else if (expected !== 'ok' && route.method !== 'HEAD' && !res.json<{ message?: string }>().message)
          failures.push(`${label} (a refusal without a message)`);

        // A basic-access admin's answers hold no identifiable field and no seeded identifiable value.
        // /uuid/{deviceId} is the tablet's own registration (device API spec): it names its participant to
        // whoever holds the tablet, staff role or not, so it is judged as a device call, not as basic access.
        if (
          caller === 'basic' &&
          expected === 'ok' &&
          route.method === 'GET' &&
          !route.url.startsWith('/uuid/') &&
          !route.url.startsWith('/api/docs')
        ) {
          basicAnswersChecked += 1;
          for (const value of identifiableValues) {
            if (res.body.includes(value))
              failures.push(`${label} (holds the identifiable value ${JSON.stringify(value)})`);
          }
          if ((res.headers['content-type'] ?? '').toString().includes('json')) {
            const forbidden = new Set<string>(IDENTIFIABLE_FIELDS);
            // The session answer names the signed-in admin (staff, not a participant).
            if (route.url === '/api/session') ['first_name', 'last_name'].forEach((f) => forbidden.delete(f));
            const leaked = keysOf(res.json()).filter((k) => forbidden.has(k));
            if (leaked.length > 0)
              failures.push(`${label} (identifiable fields ${[...new Set(leaked)].join(', ')})`);
          }
        }
      }
    }
    // The figure for the README's security evidence: printed, never asserted beyond its floor.
    console.log(
      `[authorization matrix] ${AUTHORIZATION_MATRIX.length} rows, ${appRoutes.length} routes x ${CALLERS.length} callers = ${calls} calls; ${basicAnswersChecked} basic-access answers searched for identifiable data`,
    );
    expect(failures).toEqual([]);
    expect(calls).toBe(appRoutes.length * CALLERS.length);
    expect(basicAnswersChecked).toBeGreaterThan(20);
  });

  it('a device token opens only its own participant, and a random token nothing', async () => {
    const stranger = await makeEnrolledParticipant(t.ctx.database.db, { started_date: '2026-01-05' });
    const foreign = [
      `/api/summary/${stranger.set.fitness_video_set_id}/participant/${stranger.participant.participant_id}`,
      `/api/videoset/today/${stranger.set.fitness_video_set_id}/participant/${stranger.participant.participant_id}`,
      `/api/participationprogress/${stranger.progress.fitness_participation_progress_id}`,
    ];
    for (const url of foreign) {
      const res = await t.app.inject({ url, headers: credentials.device });
      expect([403, 404], `${url}: ${res.body}`).toContain(res.statusCode);
    }
    const patch = await t.app.inject({
      method: 'PATCH',
      url: `/api/participant/${stranger.participant.participant_id}`,
      headers: credentials.device,
      payload: { purge_cache: 'false' },
    });
    expect([403, 404]).toContain(patch.statusCode);
    const random = { authorization: `Bearer ${randomBytes(32).toString('base64url')}` };
    expect(
      (
        await t.app.inject({
          url: `/api/summary/${world.setId}/participant/${world.participantId}`,
          headers: random,
        })
      ).statusCode,
    ).toBe(401);
    // A tablet may only clear purge_cache: anything else it sends is refused.
    const rename = await t.app.inject({
      method: 'PATCH',
      url: `/api/participant/${world.participantId}`,
      headers: credentials.device,
      payload: { first_name: 'Changed' },
    });
    expect([400, 403]).toContain(rename.statusCode);
  });
});
