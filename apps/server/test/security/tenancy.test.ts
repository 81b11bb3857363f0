import { sql } from 'drizzle-orm';
import { strFromU8, unzipSync } from 'fflate';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@pathway/contract';
import { rowsOf } from '../../src/db/rows.js';
import { createTestApp, type TestApp } from '../harness.js';
import { SITE_FILTERED_ROUTES, TABLE_ROUTES, TENANCY_CASES } from './tenancy-cases.js';
import { seedTenancy, type Place, type TenancyWorld } from './tenancy-world.js';

// Organisations and sites kept apart over every route of the contract's table (the cases are in
// tenancy-cases.ts): an admin of organisation A, an admin of A's site A1 alone and a tablet of A1
// call each route with organisation B's (and site A2's) records, and get a 404 or an answer that
// holds none of them, and change none of them. On PGlite and PostgreSQL alike: the database
// refuses what a handler forgets (row-level security, docs/security.md).

let t: TestApp;
let world: TenancyWorld;

beforeAll(async () => {
  t = await createTestApp();
  world = await seedTenancy(t);
});
afterAll(() => t.close());

const key = (route: { method: string; path: string }) => `${route.method} ${route.path}`;

/**
 * The other place's records as they stand: any change to one changes this. Another site of the
 * caller's own organisation shares its video library (the organisation's), not its participants,
 * their tablets or its admins.
 */
async function fingerprint(place: Place): Promise<string> {
  const library = place === world.b;
  const [row] = rowsOf<{ print: string }>(
    await t.ctx.database.db.execute(sql`
      select md5(concat_ws('|',
        (select row_to_json(p)::text from participants p where p.participant_id = ${place.participantId}),
        (select row_to_json(f)::text from fitness_participation_progress f where f.participant_id = ${place.participantId}),
        (select row_to_json(d)::text from authorized_devices d where d.authorized_device_id = ${place.deviceId}),
        (select row_to_json(s)::text from fitness_video_sets s where ${library} and s.fitness_video_set_id = ${place.setId}),
        (select row_to_json(v)::text from videos v where ${library} and v.video_id = ${place.videoId}),
        (select row_to_json(a)::text from (select user_name, first_name, role, site_ids, system_administrator,
           password_hash, totp_secret from admin_users where admin_user_id = ${place.adminUserId}) a),
        (select row_to_json(o)::text from organisations o where o.organisation_id = ${place.organisationId}),
        (select row_to_json(s)::text from sites s where s.site_id = ${place.siteId}),
        (select count(*)::text from participant_contacts where participant_id = ${place.participantId}),
        (select count(*)::text from push_outbox where participant_id = ${place.participantId}),
        (select count(*)::text from seen_videos where participant_id = ${place.participantId}),
        (select count(*)::text from assessment_results where participant_id = ${place.participantId}),
        (select count(*)::text from assessment_schedules where ${library} and fitness_video_set_id = ${place.setId}),
        (select count(*)::text from sessions s where s.admin_user_id = ${place.adminUserId} and s.ended_at is null),
        (select count(*)::text from login_throttle where user_name = lower(${place.adminUserName})))) as print`),
  );
  return row!.print;
}

/** Every text an answer holds: JSON and CSV as they are, a ZIP (XLSX, subject access) by its files. */
function textsOf(res: LightMyRequestResponse): string[] {
  const type = String(res.headers['content-type'] ?? '');
  if (type.includes('zip') || type.includes('spreadsheetml')) {
    return Object.values(unzipSync(new Uint8Array(res.rawPayload))).map((bytes) => strFromU8(bytes));
  }
  return [res.body];
}

/** Ids under the keys that carry them, anywhere in a JSON value. */
function idsIn(value: unknown, found: Map<string, number[]> = new Map()): Map<string, number[]> {
  if (Array.isArray(value)) for (const item of value) idsIn(item, found);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      const numbers =
        typeof v === 'number' ? [v] : Array.isArray(v) && v.every((n) => typeof n === 'number') ? v : [];
      if (numbers.length > 0) found.set(k, [...(found.get(k) ?? []), ...numbers]);
      idsIn(v, found);
    }
  }
  return found;
}

/** Ids in a CSV's columns named like the keys that carry them. */
function csvIds(text: string): Map<string, number[]> {
  const found = new Map<string, number[]>();
  const rows = text.split(/\r?\n/).filter(Boolean).map(splitCsvLine);
  const header = rows[0] ?? [];
  for (const row of rows.slice(1)) {
    header.forEach((column, i) => {
      const n = Number(row[i]);
      if (row[i] !== '' && Number.isInteger(n)) found.set(column, [...(found.get(column) ?? []), n]);
    });
  }
  return found;
}

function splitCsvLine(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      cells.push(cell);
      cell = '';
    } else cell += c;
  }
  cells.push(cell);
  return cells;
}

/** What of `others` an answer gives away: their texts, and their ids under the keys that carry them. */
function leaksIn(res: LightMyRequestResponse, others: Place[]): string[] {
  const leaks: string[] = [];
  for (const text of textsOf(res)) {
    for (const other of others)
      for (const marker of other.markers)
        if (text.includes(marker)) leaks.push(`the text ${JSON.stringify(marker)}`);
  }
  const type = String(res.headers['content-type'] ?? '');
  const ids = type.includes('json')
    ? idsIn(JSON.parse(res.body || 'null'))
    : type.includes('csv')
      ? csvIds(res.body)
      : new Map<string, number[]>();
  for (const other of others) {
    for (const [k, forbidden] of Object.entries(other.ids)) {
      const seen = (ids.get(k) ?? []).filter((n) => forbidden.includes(n));
      if (seen.length > 0) leaks.push(`${k} ${seen.join(', ')}`);
    }
  }
  return leaks;
}

describe('organisations and sites, kept apart on every route', () => {
  it('has a case for every route of the contract table, and none for a route that is not there', () => {
    const routes = new Set(TABLE_ROUTES.map(key));
    const missing = [...routes].filter((route) => !TENANCY_CASES.has(route));
    expect(missing, 'routes without a tenancy case (tenancy-cases.ts)').toEqual([]);
    const stale = [...TENANCY_CASES.keys()].filter((route) => !routes.has(route));
    expect(stale, 'tenancy cases of routes that are gone').toEqual([]);
  });

  it("answers another organisation's and another site's records with 404, or an answer holding none of them, and changes none", async () => {
    const callers = [
      { name: 'organisation A', headers: { cookie: world.orgA.cookie }, others: [world.b], device: false },
      {
        name: 'site A1',
        headers: { cookie: world.siteA1.cookie },
        others: [world.a2, world.b],
        device: false,
      },
      {
        name: "A1's tablet",
        headers: { authorization: world.tabletA1.authorization },
        others: [world.a2, world.b],
        device: true,
      },
    ];
    const failures: string[] = [];
    const exempt: string[] = [];
    let calls = 0;
    let notFound = 0;
    let searched = 0;
    const before = new Map<Place, string>();
    for (const place of [world.a2, world.b]) before.set(place, await fingerprint(place));

    for (const route of TABLE_ROUTES) {
      const tenancyCase = TENANCY_CASES.get(key(route))!;
      if ('exempt' in tenancyCase) {
        exempt.push(`${key(route)}: ${tenancyCase.exempt}`);
        continue;
      }
      for (const caller of callers) {
        if (Boolean(tenancyCase.asDevice) !== caller.device) continue;
        for (const other of caller.others) {
          const call = tenancyCase.call(other, world);
          const json = call.payload !== undefined && typeof call.payload !== 'string';
          const res = await t.app.inject({
            method: route.method,
            url: call.url,
            headers: {
              ...caller.headers,
              ...call.headers,
              ...(json && { 'content-type': 'application/json' }),
            },
            ...(call.payload !== undefined && {
              payload: typeof call.payload === 'string' ? call.payload : JSON.stringify(call.payload),
            }),
          });
          calls += 1;
          const label = `${key(route)} as ${caller.name} with ${other === world.b ? "B's" : "A2's"} records: ${res.statusCode}`;
          if (res.statusCode >= 500 || res.statusCode === 401) {
            failures.push(`${label} ${res.body.slice(0, 160)}`);
            continue;
          }
          if (res.statusCode === 404) {
            notFound += 1;
            continue;
          }
          searched += 1;
          const leaks = leaksIn(res, caller.others);
          if (leaks.length > 0) failures.push(`${label} gives away ${[...new Set(leaks)].join('; ')}`);
        }
        for (const place of [world.a2, world.b]) {
          if ((await fingerprint(place)) !== before.get(place))
            failures.push(
              `${key(route)} as ${caller.name} changed ${place === world.b ? "B's" : "A2's"} records`,
            );
          before.set(place, await fingerprint(place));
        }
      }
    }
    console.log(
      `[tenancy] ${TABLE_ROUTES.length} routes, ${calls} calls (${process.env.TEST_DB}): ${notFound} answered 404, ${searched} answers searched for another place's ${world.b.markers.length} texts and its ids; exempt:\n  ${exempt.join('\n  ')}`,
    );
    expect(failures).toEqual([]);
    expect(exempt).toHaveLength(16);
  });

  it("refuses a site filter naming another organisation's site, or a site outside a limited admin's, and reads nothing", async () => {
    const filtered = SITE_FILTERED_ROUTES;
    const callers = [
      { name: 'organisation A', cookie: world.orgA.cookie, others: [world.b] },
      { name: 'site A1', cookie: world.siteA1.cookie, others: [world.a2, world.b] },
    ];
    const failures: string[] = [];
    let calls = 0;
    const before = new Map<Place, string>();
    for (const place of [world.a2, world.b]) before.set(place, await fingerprint(place));
    for (const route of TABLE_ROUTES.filter((r) => filtered.has(key(r)))) {
      const tenancyCase = TENANCY_CASES.get(key(route))!;
      if ('exempt' in tenancyCase) {
        failures.push(`${key(route)} takes site_id but its tenancy case is exempt`);
        continue;
      }
      for (const caller of callers) {
        for (const other of caller.others) {
          const { url } = tenancyCase.call(other, world);
          const res = await t.app.inject({
            method: route.method,
            url: `${url}${url.includes('?') ? '&' : '?'}site_id=${other.siteId}`,
            headers: { cookie: caller.cookie },
          });
          calls += 1;
          const label = `${key(route)} as ${caller.name} with ${other === world.b ? "B's" : "A2's"} site`;
          if (
            res.statusCode !== 404 ||
            res.json<{ message: string }>().message !== messages.organisation.siteNotFound
          )
            failures.push(`${label}: ${res.statusCode} ${res.body.slice(0, 160)}`);
        }
      }
    }
    for (const place of [world.a2, world.b])
      if ((await fingerprint(place)) !== before.get(place))
        failures.push(`a site filter changed ${place === world.b ? "B's" : "A2's"} records`);
    expect(failures).toEqual([]);
    expect(calls).toBe(filtered.size * 3);
  });
});
