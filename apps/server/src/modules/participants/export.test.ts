import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EXPORT_TOTAL_HEADER,
  PARTICIPANT_CSV_BASIC_COLUMNS,
  PARTICIPANT_CSV_FULL_COLUMNS,
  messages,
} from '@pathway/contract';
import { eq, sql } from 'drizzle-orm';
import { auditEvents, participationProgress } from '../../db/schema.js';
import { createTestApp, signedInCookie, type TestApp } from '../../../test/harness.js';
import { insertDevice, insertParticipants } from '../../../test/factories.js';
import { makeVideoSet } from '../../../test/programme-factories.js';
import { EXPORT_BATCH } from './export.js';

let t: TestApp;
let full: string;
let basic: string;
/** More than one keyset batch, so the export crosses batch boundaries. */
const TOTAL = EXPORT_BATCH + 537;
const DAYS = [0, 1, 2, 3, 9, 0, 4];

beforeAll(async () => {
  t = await createTestApp();
  full = (await signedInCookie(t.ctx, 'full access')).cookie;
  basic = (await signedInCookie(t.ctx, 'basic access')).cookie;
  const device = await insertDevice(t.ctx, { name: 'Export tablet' });
  const ids = await insertParticipants(
    t.ctx,
    Array.from({ length: TOTAL }, (_, i) => ({
      first_name: i === 3 ? '=HYPERLINK("x")' : `Ann${i % 97}`,
      last_name: i === 4 ? 'O"Brien, Jr' : `Smith${(i * 31) % 211}`,
      date_of_birth: `19${String(30 + (i % 60)).padStart(2, '0')}-0${1 + (i % 9)}-1${i % 10}`,
      days_behind: DAYS[i % DAYS.length]!,
      language: 'Polish',
      ...(i === 7 && { authorized_device_id: device.authorized_device_id }),
    })),
  );
  const set = await makeVideoSet(t.ctx.database.db);
  // Every 11th has no programme: no adherence state, in no state filter.
  await t.ctx.database.db.insert(participationProgress).values(
    ids
      .filter((_, i) => i % 11 !== 10)
      .map((id) => ({
        participant_id: id,
        fitness_video_set_id: set.fitness_video_set_id,
        started_date: '2025-01-01',
        last_seen_date: '2025-01-01',
      })),
  );
});
afterAll(() => t.close());

/** A CSV line split into cells (quotes honoured), without the byte-order mark. */
function cells(line: string): string[] {
  const out: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted && c === '"' && line[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (c === ',' && !quoted) {
      out.push(cell);
      cell = '';
    } else {
      cell += c;
    }
  }
  out.push(cell);
  return out;
}

async function exportCsv(query: string, cookie: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/participant/export?${query}`,
    headers: { cookie },
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
  expect(res.headers['content-disposition']).toMatch(
    /^attachment; filename="participants-\d{4}-\d{2}-\d{2}\.csv"$/,
  );
  const text = res.body.replace(/^\uFEFF/, '');
  const lines = text.split('\r\n');
  expect(lines.pop()).toBe('');
  const [header, ...rows] = lines;
  return { total: Number(res.headers[EXPORT_TOTAL_HEADER]), header: cells(header!), rows: rows.map(cells) };
}

/** Every participant id of the list API for this query, page after page. */
async function listIds(query: string, cookie: string) {
  const ids: number[] = [];
  let total = 0;
  for (let page = 1; ; page++) {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/participant?${query}&perPage=500&page=${page}`,
      headers: { cookie },
    });
    const body = res.json();
    total = body.pagination.total;
    ids.push(...body.data.map((p: { participant_id: number }) => p.participant_id));
    if (body.data.length < 500) break;
  }
  return { ids, total };
}

describe('GET /api/participant/export', () => {
  it.each([
    'sort=participant_id&order=asc',
    'state=behind&sort=last_name&order=desc',
    'state=onTrack&sort=date_of_birth&order=asc',
    'sort=days_behind&order=desc',
    'q=Ann1&sort=first_name&order=asc',
  ])('holds the whole list in the API order, with the API total: %s', async (query) => {
    const csv = await exportCsv(query, full);
    const api = await listIds(query, full);
    expect(csv.header).toEqual([...PARTICIPANT_CSV_FULL_COLUMNS]);
    expect(csv.total).toBe(api.total);
    expect(csv.rows).toHaveLength(api.total);
    expect(csv.rows.map((r) => Number(r[0]))).toEqual(api.ids);
  });

  it('writes every cell as the grid shows it, escaping quotes, commas and formulas', async () => {
    const csv = await exportCsv('sort=participant_id&order=asc', full);
    expect(csv.rows).toHaveLength(TOTAL);
    const col = (name: (typeof PARTICIPANT_CSV_FULL_COLUMNS)[number]) =>
      PARTICIPANT_CSV_FULL_COLUMNS.indexOf(name);
    expect(csv.rows[3]![col('first_name')]).toBe(`'=HYPERLINK("x")`);
    expect(csv.rows[4]![col('last_name')]).toBe('O"Brien, Jr');
    expect(csv.rows[7]![col('name')]).toBe('Export tablet');
    expect(csv.rows[8]![col('unique_device_id')]).toBe('empty');
    expect(csv.rows[0]![col('date_of_birth')]).toBe('1930-01-10');
    expect(csv.rows[4]![col('tracking')]).toBe('Behind');
    expect(csv.rows[2]![col('tracking')]).toBe('Slightly behind');
    expect(csv.rows[10]![col('tracking')]).toBe('No programme');
    expect(csv.rows[10]![col('days_behind')]).toBe('3');
  });

  it('gives basic access non-identifiable columns only, and refuses their sorting by name', async () => {
    const csv = await exportCsv('state=slightlybehind&sort=days_behind&order=asc', basic);
    expect(csv.header).toEqual([...PARTICIPANT_CSV_BASIC_COLUMNS]);
    expect(csv.rows.length).toBe((await listIds('state=slightlybehind', basic)).total);
    const body = (
      await t.app.inject({ method: 'GET', url: '/api/participant/export', headers: { cookie: basic } })
    ).body;
    expect(body).not.toMatch(/Ann\d|Smith|HYPERLINK|Brien|19\d\d-\d\d-\d\d/);
    const sorted = await t.app.inject({
      method: 'GET',
      url: '/api/participant/export?sort=last_name',
      headers: { cookie: basic },
    });
    expect(sorted.statusCode).toBe(403);
    expect(sorted.json()).toEqual({ message: messages.participant.sortForbidden });
  });

  it('records a full-access export in the audit trail with every participant it sent; a basic one not', async () => {
    const count = async () =>
      (
        await t.ctx.database.db
          .select({ n: sql<number>`count(*)::int` })
          .from(auditEvents)
          .where(eq(auditEvents.action, 'participant.export'))
      )[0]!.n;
    const before = await count();
    await exportCsv('sort=participant_id', basic);
    expect(await count()).toBe(before);

    await t.ctx.database.db.delete(auditEvents).where(eq(auditEvents.action, 'participant.export'));
    const csv = await exportCsv('sort=participant_id', full);
    const events = await t.ctx.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'participant.export'));
    expect(events).toHaveLength(Math.ceil(TOTAL / EXPORT_BATCH));
    const audited = events.flatMap((e) => e.participant_ids ?? []).sort((a, b) => a - b);
    expect(audited).toEqual(csv.rows.map((r) => Number(r[0])).sort((a, b) => a - b));
    for (const e of events) {
      expect(e.detail).not.toMatch(/Ann|Smith/);
      expect(e.admin_user_name.length).toBeGreaterThan(0);
    }
  });

  it('refuses bad input with a 400 and a message, and strangers with a 401', async () => {
    for (const query of ['state=lost', 'sort=password', 'order=up', `q=${'x'.repeat(101)}`]) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/participant/export?${query}`,
        headers: { cookie: full },
      });
      expect(res.statusCode, query).toBe(400);
      expect(res.json().message.length).toBeGreaterThan(5);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/participant/export' })).statusCode).toBe(401);
  });
});
