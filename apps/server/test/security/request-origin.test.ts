import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@pathway/contract';
import { videoSets } from '../../src/db/schema.js';
import { createTestApp, signedInCookie, type TestApp } from '../harness.js';
import { rowFor, type Call, type MatrixRow, type World } from './authorization-matrix.js';
import { seedWorld, type SeededWorld } from './world.js';

/**
 * Cross-site request forgery, derived from the app's real route list (as the authorization
 * matrix is): every state-changing route that acts with the staff session cookie refuses a foreign
 * Origin, a cross-site Sec-Fetch-Site and a form body (the sign-in form aside); every device route
 * still takes the tablet's form bodies whatever the headers say.
 */
let t: TestApp;
let world: World;
let credentials: SeededWorld['credentials'];
const routes: Array<{
  method: string;
  url: string;
  access: string;
  sessionRoute: boolean;
  browserForm: boolean;
}> = [];
const STATE_CHANGING = ['POST', 'PUT', 'PATCH', 'DELETE'];
const FOREIGN = 'https://evil.example';
/** What app.inject sends as Host, so the console's own origin. */
const OWN = 'http://localhost:80';

beforeAll(async () => {
  t = await createTestApp({
    onRoute: (route: RouteOptions) => {
      for (const method of [route.method].flat()) {
        if (!STATE_CHANGING.includes(method)) continue;
        routes.push({
          method,
          url: route.url,
          access: route.config?.access ?? 'public',
          sessionRoute: route.config?.sessionRoute === true,
          browserForm: route.config?.browserForm === true,
        });
      }
    },
  });
  ({ world, credentials } = await seedWorld(t));
});
afterAll(() => t.close());

function asForm(payload: unknown): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries((payload ?? {}) as Record<string, unknown>)) {
    params.append(k, typeof v === 'string' ? v : JSON.stringify(v));
  }
  return params.toString();
}

type Variant = 'foreign-origin' | 'null-origin' | 'cross-site' | 'form' | 'form-foreign' | 'own-origin';

async function send(
  route: (typeof routes)[number],
  row: MatrixRow,
  variant: Variant,
  auth: Record<string, string>,
) {
  const call: Call = await row.call(world, route.access === 'public' ? 'anonymous' : 'system');
  const headers: Record<string, string> = { ...call.headers, ...auth };
  let payload: string | undefined =
    call.payload === undefined
      ? undefined
      : typeof call.payload === 'string'
        ? call.payload
        : JSON.stringify(call.payload);
  if (payload !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
  if (variant === 'foreign-origin' || variant === 'form-foreign') headers.origin = FOREIGN;
  if (variant === 'null-origin') headers.origin = 'null';
  if (variant === 'cross-site') headers['sec-fetch-site'] = 'cross-site';
  if (variant === 'own-origin') {
    headers.origin = OWN;
    headers['sec-fetch-site'] = 'same-origin';
  }
  if (variant === 'form' || variant === 'form-foreign') {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    payload = asForm(call.payload);
  }
  return t.app.inject({ method: route.method as 'POST', url: call.url, headers, payload });
}

describe('requests that did not come from the console', () => {
  it('finds the state-changing routes of the app', () => {
    expect(routes.filter((r) => r.access === 'staff').length).toBeGreaterThan(20);
    expect(routes.some((r) => r.url === '/login' && r.sessionRoute && r.browserForm)).toBe(true);
  });

  it('refuses a foreign Origin, a cross-site fetch and a form body on every state-changing staff route', async () => {
    const failures: string[] = [];
    let calls = 0;
    const staffRoutes = routes.filter(
      (r) => r.access === 'staff' || r.access === 'staff-or-device' || r.sessionRoute,
    );
    for (const route of staffRoutes) {
      const row = rowFor(route.method, route.url);
      if (!row) {
        failures.push(`${route.method} ${route.url}: no matrix row`);
        continue;
      }
      const auth = route.access === 'public' ? {} : credentials.system;
      const variants: [Variant, number, string][] = [
        ['foreign-origin', 403, messages.origin.refused],
        ['null-origin', 403, messages.origin.refused],
        ['cross-site', 403, messages.origin.refused],
        route.browserForm
          ? ['form-foreign', 403, messages.origin.refused]
          : ['form', 415, messages.origin.formRefused],
      ];
      for (const [variant, status, message] of variants) {
        calls += 1;
        const res = await send(route, row, variant, auth);
        if (res.statusCode !== status || res.json().message !== message) {
          failures.push(
            `${route.method} ${route.url} ${variant}: ${res.statusCode} ${res.body.slice(0, 120)}`,
          );
        }
        if (route.url === '/login' && res.cookies.some((c) => c.name === 'jwt' && c.value)) {
          failures.push(`/login ${variant} set a session cookie`);
        }
      }
      // From the console's own origin the same call goes through.
      const ownAuth = row.endsSession ? (await signedInCookie(t.ctx, 'full access')).cookie : undefined;
      calls += 1;
      const ok = await send(route, row, 'own-origin', ownAuth ? { cookie: ownAuth } : auth);
      if ([403, 415].includes(ok.statusCode) || ok.statusCode >= 500) {
        failures.push(`${route.method} ${route.url} own-origin: ${ok.statusCode} ${ok.body.slice(0, 120)}`);
      }
    }
    console.log(
      `[csrf] ${staffRoutes.length} state-changing staff routes, ${calls} calls, ${failures.length} failures`,
    );
    expect(failures).toEqual([]);
  });

  it('signs the browser in with a form post from the console itself, never from another site', async () => {
    const row = rowFor('POST', '/login')!;
    const route = routes.find((r) => r.url === '/login')!;
    const own = await t.app.inject({
      method: 'POST',
      url: '/login',
      headers: { origin: OWN, 'content-type': 'application/x-www-form-urlencoded' },
      payload: asForm((await row.call(world, 'anonymous')).payload),
    });
    expect(own.statusCode).toBe(200);
    const foreign = await send(route, row, 'form-foreign', {});
    expect(foreign.statusCode).toBe(403);
    expect(foreign.cookies.find((c) => c.name === 'jwt')).toBeUndefined();
  });

  it('a refused forgery changes nothing', async () => {
    const before = (await t.ctx.database.db.select().from(videoSets)).length;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/videoset',
      headers: {
        ...credentials.system,
        'content-type': 'application/x-www-form-urlencoded',
        origin: FOREIGN,
      },
      payload: 'set_name=Forged&number_of_weeks=2&videos_in_week=2',
    });
    expect(res.statusCode).toBe(403);
    const form = await t.app.inject({
      method: 'POST',
      url: '/api/videoset',
      headers: { ...credentials.system, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'set_name=Forged&number_of_weeks=2&videos_in_week=2',
    });
    expect(form.statusCode).toBe(415);
    expect((await t.ctx.database.db.select().from(videoSets)).length).toBe(before);
  });

  it('takes the tablet app form bodies on every device route, whatever Origin or Sec-Fetch-Site say', async () => {
    const deviceRoutes = routes.filter(
      (r) => r.access === 'device' || r.access === 'staff-or-device' || r.url.startsWith('/uuid/'),
    );
    expect(deviceRoutes.length).toBeGreaterThanOrEqual(3);
    const failures: string[] = [];
    for (const route of deviceRoutes) {
      const row = rowFor(route.method, route.url)!;
      const auth = route.access === 'public' ? {} : credentials.device;
      for (const variant of ['form', 'form-foreign', 'cross-site'] as const) {
        const call = await row.call(world, 'device');
        const headers: Record<string, string> = {
          ...call.headers,
          ...auth,
          'content-type': 'application/x-www-form-urlencoded',
        };
        if (variant === 'form-foreign') headers.origin = FOREIGN;
        if (variant === 'cross-site') headers['sec-fetch-site'] = 'cross-site';
        const res = await t.app.inject({
          method: route.method as 'POST',
          url: call.url,
          headers,
          payload: asForm(call.payload),
        });
        const message = String(res.headers['content-type'] ?? '').includes('json')
          ? res.json().message
          : undefined;
        if (
          [403, 415].includes(res.statusCode) ||
          res.statusCode >= 500 ||
          message === messages.origin.refused
        ) {
          failures.push(
            `${route.method} ${route.url} ${variant}: ${res.statusCode} ${res.body.slice(0, 120)}`,
          );
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('accepts an origin from ALLOWED_ORIGINS and PUBLIC_URL', async () => {
    const proxied = await createTestApp({
      env: { ALLOWED_ORIGINS: 'https://pathway.trust.example', PUBLIC_URL: 'https://pathway.example.nhs.uk' },
    });
    try {
      const { cookie } = await signedInCookie(proxied.ctx, 'full access');
      const post = (origin: string) =>
        proxied.app.inject({
          method: 'POST',
          url: '/api/videoset',
          headers: { cookie, origin },
          payload: { set_name: `Allowed ${origin}`, number_of_weeks: 1, videos_in_week: 1 },
        });
      expect((await post('https://pathway.trust.example')).statusCode).toBe(201);
      expect((await post('https://pathway.example.nhs.uk')).statusCode).toBe(201);
      expect((await post('https://pathway.trust.example.evil.example')).statusCode).toBe(403);
      expect((await post('http://pathway.trust.example')).statusCode).toBe(403);
    } finally {
      await proxied.close();
    }
  });
});
