import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@pathway/contract';
import { createTestApp, signedInCookie, type TestApp } from '../../../test/harness.js';
import { insertDevice, insertParticipants } from '../../../test/factories.js';
import { makeVideoSet } from '../../../test/programme-factories.js';
import { participationProgress } from '../../db/schema.js';

let t: TestApp;
let full: string;
let basic: string;
/** days_behind of each participant made here, by id. */
const daysBehind = new Map<number, number>();
const lastNames = new Map<number, string>();
/** Participants made without a programme: they have no adherence state. */
const withoutProgramme = new Set<number>();

const TOTAL = 130;
const DAYS = [0, 0, 1, 2, 3, 7, 0, 2, 12, 0];

beforeAll(async () => {
  t = await createTestApp();
  full = (await signedInCookie(t.ctx, 'full access')).cookie;
  basic = (await signedInCookie(t.ctx, 'basic access')).cookie;
  const device = await insertDevice(t.ctx, { name: 'Findable tablet' });
  // Names sort in a different order from ids, with duplicates, so ties on the sort column happen.
  const rows = Array.from({ length: TOTAL }, (_, i) => ({
    first_name: `F${(i * 7) % 13}`,
    last_name: `Name${String((i * 37) % 50).padStart(2, '0')}`,
    date_of_birth: `19${String(40 + (i % 50)).padStart(2, '0')}-0${1 + (i % 9)}-1${i % 10}`,
    days_behind: DAYS[i % DAYS.length]!,
    ...(i === 5 && { authorized_device_id: device.authorized_device_id }),
  }));
  const ids = await insertParticipants(t.ctx, rows);
  ids.forEach((id, i) => {
    daysBehind.set(id, rows[i]!.days_behind);
    lastNames.set(id, rows[i]!.last_name);
    // Every 10th (0 days behind by default, as newcomers are) has no programme yet.
    if (i % 10 === 9) withoutProgramme.add(id);
  });
  const set = await makeVideoSet(t.ctx.database.db);
  await t.ctx.database.db.insert(participationProgress).values(
    ids
      .filter((id) => !withoutProgramme.has(id))
      .map((id) => ({
        participant_id: id,
        fitness_video_set_id: set.fitness_video_set_id,
        started_date: '2025-01-01',
        last_seen_date: '2025-01-01',
      })),
  );
});
afterAll(() => t.close());

interface Page {
  data: Array<{
    participant_id: number;
    days_behind: number;
    adherence_state: string | null;
    last_name?: string;
    date_of_birth?: string;
  }>;
  pagination: {
    total: number;
    lastPage: number;
    perPage: number;
    currentPage: number;
    from: number;
    to: number;
    nextCursor: string | null;
  };
}

async function list(query: string, cookie = full): Promise<Page> {
  const res = await t.app.inject({ method: 'GET', url: `/api/participant?${query}`, headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Every page of a listing, by page number or by following nextCursor. */
async function walk(query: string, perPage: number, by: 'page' | 'cursor'): Promise<number[]> {
  const ids: number[] = [];
  let after: string | null = null;
  for (let page = 1; page < 100; page++) {
    const cursorPart: string = by === 'cursor' && after ? `&after=${after}` : '';
    const res: Page = await list(`${query}&perPage=${perPage}&page=${page}${cursorPart}`);
    ids.push(...res.data.map((p) => p.participant_id));
    after = res.pagination.nextCursor;
    if (res.data.length < perPage || (by === 'cursor' && !after)) break;
  }
  return ids;
}

describe('paging', () => {
  it('answers 25 per page by default, with the pagination block', async () => {
    const page = await list('');
    expect(page.data).toHaveLength(25);
    expect(page.pagination).toMatchObject({
      total: TOTAL,
      lastPage: Math.ceil(TOTAL / 25),
      perPage: 25,
      currentPage: 1,
      from: 1,
      to: 25,
    });
    expect(page.data.map((p) => p.participant_id)).toEqual(
      [...page.data.map((p) => p.participant_id)].sort((a, b) => a - b),
    );
  });

  it('answers the 100 the console asks for, the remainder on the last page, nothing past it', async () => {
    const first = await list('page=1&perPage=100');
    expect(first.data).toHaveLength(100);
    const second = await list('page=2&perPage=100');
    expect(second.data).toHaveLength(TOTAL - 100);
    expect(second.pagination).toMatchObject({
      currentPage: 2,
      lastPage: 2,
      from: 101,
      to: TOTAL,
      nextCursor: null,
    });
    const past = await list('page=9&perPage=100');
    expect(past.data).toEqual([]);
    expect(past.pagination).toMatchObject({ total: TOTAL, from: 0, to: 0, nextCursor: null });
  });

  it('refuses nonsense paging with a 400 and a message', async () => {
    for (const query of [
      'page=0',
      'page=-1',
      'page=abc',
      'perPage=0',
      'perPage=501',
      'perPage=2.5',
      'sort=password',
      'order=up',
      'state=lost',
    ]) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/participant?${query}`,
        headers: { cookie: full },
      });
      expect(res.statusCode, query).toBe(400);
      expect(res.json().message.length).toBeGreaterThan(5);
    }
  });

  it('walks the same rows by cursor as by page number, for every sort and filter', async () => {
    for (const query of [
      'sort=participant_id&order=asc',
      'sort=participant_id&order=desc',
      'sort=days_behind&order=desc',
      'sort=last_name&order=asc',
      'sort=date_of_birth&order=desc',
      'state=behind&sort=last_name&order=desc',
    ]) {
      const byPage = await walk(query, 9, 'page');
      const byCursor = await walk(query, 9, 'cursor');
      expect(byCursor, query).toEqual(byPage);
      expect(new Set(byPage).size, query).toBe(byPage.length);
    }
    expect(await walk('sort=last_name&order=asc', 9, 'page')).toHaveLength(TOTAL);
  });

  it('refuses a forged cursor or one from another sort', async () => {
    const page = await list('sort=last_name&perPage=5');
    for (const query of [
      `sort=days_behind&after=${page.pagination.nextCursor}`,
      'after=not-a-cursor',
      `after=${Buffer.from('[1,2]').toString('base64url')}`,
    ]) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/participant?${query}`,
        headers: { cookie: full },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: messages.participant.cursorInvalid });
    }
  });

  it('refuses a cursor whose value its sort column cannot take, with a 400 and not a 5xx', async () => {
    const cursor = (values: unknown[]) => Buffer.from(JSON.stringify(values)).toString('base64url');
    for (const [sort, value] of [
      ['last_name', 'Name\u0000'],
      ['tablet_last_contact_at', '1'],
      ['tablet_last_contact_at', '2026-02-30T00:00:00.000Z'],
      ['date_of_birth', '1950-02-30'],
      ['days_behind', 2147483648],
      ['days_behind', '3'],
    ] as const) {
      const query = `sort=${sort}&after=${cursor([sort, 'asc', value, 1])}`;
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/participant?${query}`,
        headers: { cookie: full },
      });
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toEqual({ message: messages.participant.cursorInvalid });
    }
  });
});

describe('filtering by adherence state', () => {
  const expected = {
    onTrack: (d: number) => d === 0,
    slightlybehind: (d: number) => d >= 1 && d <= 2,
    behind: (d: number) => d >= 3,
  };

  it.each(Object.entries(expected))(
    'state=%s returns exactly those participants with a programme',
    async (state, matches) => {
      const page = await list(`state=${state}&perPage=500`, basic);
      const want = [...daysBehind.entries()]
        .filter(([id, d]) => matches(d) && !withoutProgramme.has(id))
        .map(([id]) => id);
      expect(page.data.map((p) => p.participant_id)).toEqual(want);
      expect(page.pagination.total).toBe(want.length);
      for (const p of page.data) {
        expect(matches(p.days_behind)).toBe(true);
        expect(p.adherence_state).toBe(state);
      }
      // The same total when a search narrows nothing (counted, not read from the tally).
      expect((await list(`state=${state}&q=Name&perPage=500`)).pagination.total).toBe(want.length);
    },
  );

  it('gives a participant without a programme no adherence state, and each card its list total', async () => {
    const all = await list('perPage=500', basic);
    expect(all.pagination.total).toBe(TOTAL);
    for (const p of all.data) {
      expect(p.adherence_state === null, String(p.participant_id)).toBe(
        withoutProgramme.has(p.participant_id),
      );
    }
    const res = await t.app.inject({ method: 'GET', url: '/api/dashboard', headers: { cookie: basic } });
    const cards = res.json().participantsProgress;
    expect((await list('state=onTrack&perPage=1', basic)).pagination.total).toBe(cards.onTrack);
    expect((await list('state=slightlybehind&perPage=1', basic)).pagination.total).toBe(cards.slightlyBehind);
    expect((await list('state=behind&perPage=1', basic)).pagination.total).toBe(cards.behind);
    expect(cards.onTrack + cards.slightlyBehind + cards.behind).toBe(TOTAL - withoutProgramme.size);
  });
});

describe('sorting and searching', () => {
  it('sorts by days behind (ties by id) and, for full access, by last name and date of birth', async () => {
    const byDays = (await list('sort=days_behind&order=desc&perPage=500')).data;
    const want = [...daysBehind.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0]).map(([id]) => id);
    expect(byDays.map((p) => p.participant_id)).toEqual(want);

    const byName = (await list('sort=last_name&order=asc&perPage=500')).data;
    const names = byName.map((p) => p.last_name!);
    expect(names).toEqual([...names].sort());
    const byDob = (await list('sort=date_of_birth&order=asc&perPage=500')).data.map((p) => p.date_of_birth!);
    expect(byDob).toEqual([...byDob].sort());
  });

  it('finds by device name for anyone, and by id', async () => {
    const byDevice = await list('q=findable', basic);
    expect(byDevice.data).toHaveLength(1);
    const id = byDevice.data[0]!.participant_id;
    expect((await list(`q=${id}`, basic)).data.map((p) => p.participant_id)).toContain(id);
    expect(
      (await list(`q=${encodeURIComponent(lastNames.get(id)!)}&perPage=500`)).data.map(
        (p) => p.participant_id,
      ),
    ).toContain(id);
    expect((await list('q=%25')).data).toEqual([]);
  });
});
