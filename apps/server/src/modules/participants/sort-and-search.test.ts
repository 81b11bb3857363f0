import { asc, getTableColumns, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  IDENTIFIABLE_SORTS,
  PARTICIPANT_FIELDS,
  PARTICIPANT_SORTS,
  SEARCHABLE_FIELDS,
  SORTABLE_FIELDS,
  messages,
  participantField,
  type ParticipantFieldName,
} from '@pathway/contract';
import { rowsOf } from '../../db/rows.js';
import { participantAdherence, participants } from '../../db/schema.js';
import { createTestApp, signedInCookie, type TestApp } from '../../../test/harness.js';
import { insertParticipants } from '../../../test/factories.js';
import { SORT_KEYS } from './repository.js';

// A field's sortability and searchability are said once, in the contract's field table
// (`grid.sortable`, `search`): this file holds the list's statement, its indexes and the route to it.

let t: TestApp;
let full: string;
let basic: string;

beforeAll(async () => {
  t = await createTestApp();
  full = (await signedInCookie(t.ctx, 'full access')).cookie;
  basic = (await signedInCookie(t.ctx, 'basic access')).cookie;
});
afterAll(() => t.close());

const FIELD_NAMES = Object.keys(PARTICIPANT_FIELDS) as ParticipantFieldName[];
const get = (query: string, cookie = full) =>
  t.app.inject({ method: 'GET', url: `/api/participant?${query}`, headers: { cookie } });

describe('sortable fields', () => {
  it('are the fields the table marks sortable, each with a sort key over a column that is never null', () => {
    expect(SORTABLE_FIELDS).toEqual(FIELD_NAMES.filter((name) => participantField(name).grid?.sortable));
    for (const name of SORTABLE_FIELDS) {
      expect(PARTICIPANT_SORTS, name).toContain(name);
      expect(SORT_KEYS[name].expression, name).toBe(participants[name]);
      // A keyset cursor compares (value, id) rows: a null would stop the walk.
      expect(participants[name].notNull, name).toBe(true);
    }
    expect(Object.keys(SORT_KEYS).sort()).toEqual([...PARTICIPANT_SORTS].sort());
  });

  it('each sort of the list has an index that gives its order, so a page is an index range', async () => {
    // With scans of the table and sorts priced out, the planner sorts only where no index gives
    // the order (a Sort or an Incremental Sort over an index of the column alone).
    const plans: Record<string, string> = {};
    await t.ctx.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      await tx.execute(sql`set local enable_sort = off`);
      for (const sort of PARTICIPANT_SORTS) {
        const key = SORT_KEYS[sort];
        const adherence = key.expression === participantAdherence.days_behind;
        const id = adherence ? participantAdherence.participant_id : participants.participant_id;
        const query = tx
          .select({ id })
          .from(adherence ? participantAdherence : participants)
          .orderBy(...(key.expression ? [asc(key.expression), asc(id)] : [asc(id)]))
          .limit(100)
          .toSQL();
        const result = await tx.execute(sql.raw(`explain (costs off) ${inline(query)}`));
        plans[sort] = rowsOf<Record<string, string>>(result)
          .map((row) => Object.values(row)[0])
          .join('\n');
      }
    });
    for (const sort of PARTICIPANT_SORTS) {
      expect(plans[sort], sort).toMatch(/Index (Only )?Scan/);
      expect(plans[sort], sort).not.toMatch(/Sort/);
    }
  });

  it("walks by cursor as by page number in each sort and order, in the sort column's order", async () => {
    const names = ['mm', 'ab', 'zz', 'ab', 'kq', 'ca', 'mm', 'be'];
    await insertParticipants(
      t.ctx,
      names.map((name, i) => ({
        first_name: name,
        last_name: names[(i + 3) % names.length]!,
        date_of_birth: `19${50 + ((i * 7) % 10)}-0${1 + (i % 3)}-1${i % 4}`,
        days_behind: (i * 5) % 4,
        tablet_last_contact_at: i % 3 === 0 ? null : new Date(Date.UTC(2026, 0, 1 + ((i * 3) % 5))),
      })),
    );
    type Row = Record<string, unknown> & { participant_id: number };
    const valueOf = (sort: string, row: Row) =>
      sort === 'tablet_last_contact_at'
        ? ((row[sort] as string | null) ?? '')
        : (row[sort] as string | number);
    for (const sort of PARTICIPANT_SORTS) {
      for (const order of ['asc', 'desc'] as const) {
        const whole = (await get(`sort=${sort}&order=${order}&perPage=500`)).json<{ data: Row[] }>().data;
        const expected = [...whole].sort((a, b) => {
          const [x, y] = [valueOf(sort, a), valueOf(sort, b)];
          const byValue = x < y ? -1 : x > y ? 1 : 0;
          return (order === 'asc' ? 1 : -1) * (byValue || a.participant_id - b.participant_id);
        });
        expect(
          whole.map((r) => r.participant_id),
          `${sort} ${order}`,
        ).toEqual(expected.map((r) => r.participant_id));
        const walked: number[] = [];
        let after: string | null = null;
        for (let page = 1; page <= whole.length; page++) {
          const res = await get(
            `sort=${sort}&order=${order}&perPage=3&page=${page}${after ? `&after=${after}` : ''}`,
          );
          expect(res.statusCode, `${sort} ${order} page ${page}`).toBe(200);
          const body = res.json<{ data: Row[]; pagination: { nextCursor: string | null } }>();
          walked.push(...body.data.map((r) => r.participant_id));
          after = body.pagination.nextCursor;
          if (!after) break;
        }
        expect(walked, `${sort} ${order}`).toEqual(whole.map((r) => r.participant_id));
      }
    }
  });

  it('refuses with 400 a sort by any field the table does not mark sortable', async () => {
    for (const name of FIELD_NAMES.filter((n) => !(PARTICIPANT_SORTS as readonly string[]).includes(n))) {
      const res = await get(`sort=${name}`);
      expect(res.statusCode, name).toBe(400);
      expect(res.json<{ message: string }>().message, name).toBe(
        `sort must be one of ${PARTICIPANT_SORTS.join(', ')}`,
      );
    }
  });

  it('refuses basic access a sort by an identifiable field (403), and answers it every other', async () => {
    for (const sort of PARTICIPANT_SORTS) {
      const res = await get(`sort=${sort}`, basic);
      if (IDENTIFIABLE_SORTS.includes(sort)) {
        expect(res.statusCode, sort).toBe(403);
        expect(res.json(), sort).toEqual({ message: messages.participant.sortForbidden });
      } else {
        expect(res.statusCode, sort).toBe(200);
      }
    }
  });
});

describe('searchable fields', () => {
  it('the search finds a participant by a part of each field the table marks searchable, and by no other', async () => {
    const columns = getTableColumns(participants);
    // Every free-text column of a field (a date, a choice or a yes/no has nothing to find a part of).
    const textFields = FIELD_NAMES.filter((name) => {
      const column = (columns as Record<string, { columnType: string } | undefined>)[name];
      const field = participantField(name);
      return (
        column?.columnType === 'PgText' &&
        field.rule?.kind !== 'choice' &&
        field.rule?.kind !== 'optionalChoice'
      );
    });
    expect(textFields).toEqual(expect.arrayContaining([...SEARCHABLE_FIELDS]));
    const marker = (name: string) => `Qz${name.replace(/_/g, '')}Xq`;
    const ids = await insertParticipants(
      t.ctx,
      textFields.map((name) => ({ [name]: `before ${marker(name)} after` })),
    );
    for (const [i, name] of textFields.entries()) {
      const searchable = (SEARCHABLE_FIELDS as readonly string[]).includes(name);
      const found = async (cookie: string) =>
        (await get(`q=${marker(name).toLowerCase()}&perPage=500`, cookie))
          .json<{ data: { participant_id: number }[] }>()
          .data.map((r) => r.participant_id);
      expect(await found(full), name).toEqual(searchable ? [ids[i]] : []);
      // Basic access searches no field it may not see.
      const open = participantField(name).access === undefined;
      expect(await found(basic), name).toEqual(searchable && open ? [ids[i]] : []);
    }
  });
});

/** A query Drizzle built, its values written in (EXPLAIN of a parameterised text needs them bound). */
function inline(query: { sql: string; params: unknown[] }): string {
  return query.sql.replace(/\$(\d+)/g, (_, n: string) => {
    const value = query.params[Number(n) - 1];
    return typeof value === 'number' ? String(value) : `'${String(value).replace(/'/g, "''")}'`;
  });
}
