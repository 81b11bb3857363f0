import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { cursorCodec, cursorParts, pagedStatement } from './paged-statement.js';
import { rowReader } from './rows.js';
import { auditEvents } from './schema.js';

interface Order {
  sort: 'name' | 'since';
  order: 'asc' | 'desc';
}

const codec = cursorCodec<Order, { value: string; id: number }>({
  refusal: 'not a cursor of this list',
  of: (o) => [o.sort, o.order],
  at: (o) => ({
    value: o.sort === 'since' ? cursorParts.timestamp : cursorParts.text(10),
    id: cursorParts.id,
  }),
});
const byName: Order = { sort: 'name', order: 'asc' };
const raw = (values: unknown) => Buffer.from(JSON.stringify(values)).toString('base64url');

describe('cursorCodec', () => {
  it('writes what the cursor belongs to, then the place, as base64url JSON, and reads it back', () => {
    const text = codec.encode(byName, { value: 'Ann', id: 7 });
    expect(text).toBe(raw(['name', 'asc', 'Ann', 7]));
    expect(codec.decode(text, byName)).toEqual({ ok: true, position: { value: 'Ann', id: 7 } });
  });

  it('refuses a cursor of another list state, of another length, or not JSON at all', () => {
    const text = codec.encode(byName, { value: 'Ann', id: 7 });
    const cases: [string, Order][] = [
      [text, { sort: 'name', order: 'desc' }],
      [text, { sort: 'since', order: 'asc' }],
      [raw(['name', 'asc', 'Ann']), byName],
      [raw(['name', 'asc', 'Ann', 7, 8]), byName],
      [raw({ sort: 'name' }), byName],
      ['not a cursor', byName],
      ['', byName],
    ];
    for (const [cursor, order] of cases) {
      expect(codec.decode(cursor, order), cursor).toEqual({ ok: false });
    }
  });

  it('refuses each value its check refuses', () => {
    for (const values of [
      ['name', 'asc', 'x'.repeat(11), 7],
      ['name', 'asc', 'A\u0000', 7],
      ['name', 'asc', 3, 7],
      ['name', 'asc', 'Ann', 0],
      ['name', 'asc', 'Ann', 2147483648],
      ['name', 'asc', 'Ann', 1.5],
      ['name', 'asc', 'Ann', '7'],
    ]) {
      expect(codec.decode(raw(values), byName), JSON.stringify(values)).toEqual({ ok: false });
    }
  });
});

describe('cursorParts', () => {
  it('takes a time only as Date.toISOString writes it, which PostgreSQL reads as the same instant', () => {
    expect(cursorParts.timestamp('2026-11-28T10:00:00.000Z')).toBe(true);
    for (const value of ['1', 'May 5', '2026-02-30T00:00:00.000Z', '2026-11-28', '2026-11-28T10:00:00Z', 5]) {
      expect(cursorParts.timestamp(value), String(value)).toBe(false);
    }
  });

  it('takes a calendar date, an int of PostgreSQL and text it can store', () => {
    expect(cursorParts.date('1950-02-28')).toBe(true);
    expect(cursorParts.date('1950-02-30')).toBe(false);
    expect(cursorParts.int()(-2147483648)).toBe(true);
    expect(cursorParts.int()(2147483648)).toBe(false);
    expect(cursorParts.int(2, 2)(1)).toBe(false);
    expect(cursorParts.text(3)('abc')).toBe(true);
    expect(cursorParts.text(3)('abcd')).toBe(false);
  });
});

describe('pagedStatement', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const list = pagedStatement({
    name: 'test.page',
    read: rowReader<{ participant_id: number; label: string }>()(['participant_id', 'label']),
    auditAction: 'participant.list',
  });
  const actor = { adminUserId: 1, userName: 'paging.test', ip: '127.0.0.1' };
  const page = (after: number, limit: number) => ({
    params: [after],
    page: `select participant_id, 'row ' || participant_id as label
      from generate_series(1, 5) participant_id where participant_id > $1::int order by participant_id limit ${limit}`,
  });
  const lastAudit = async () =>
    (
      await t.ctx.database.db.select().from(auditEvents).orderBy(desc(auditEvents.audit_event_id)).limit(1)
    )[0];

  it('without a total or an audit record is the page itself', async () => {
    const composed = list.compose(page(0, 2));
    expect(composed.sql).toBe(page(0, 2).page);
    expect(await list.run(t.ctx.database.db, composed, false)).toEqual({
      rows: [
        { participant_id: 1, label: 'row 1' },
        { participant_id: 2, label: 'row 2' },
      ],
    });
  });

  it('reads the total and writes the audit record in the same statement, named or not', async () => {
    for (const named of [true, false]) {
      const composed = list.compose({
        ...page(2, 2),
        total: (param) => `select ${param(5)}::int as total`,
        audit: { actor, detail: { before: 'page 2, ', after: ', sort id' } },
      });
      const { rows, total } = await list.run(t.ctx.database.db, composed, named);
      expect(total).toBe(5);
      expect(rows.map((r) => r.participant_id)).toEqual([3, 4]);
      const audit = await lastAudit();
      expect(audit).toMatchObject({
        action: 'participant.list',
        admin_user_id: 1,
        admin_user_name: 'paging.test',
        participant_ids: [3, 4],
        detail: 'page 2, 2 rows, sort id',
        ip: '127.0.0.1',
      });
    }
  });

  it('past the end answers the total and no rows, and writes no audit record', async () => {
    const before = await lastAudit();
    const composed = list.compose({
      ...page(5, 2),
      total: () => 'select 5 as total',
      audit: { actor, detail: 'past the end' },
    });
    expect(await list.run(t.ctx.database.db, composed, true)).toEqual({ rows: [], total: 5 });
    expect((await lastAudit())?.audit_event_id).toBe(before?.audit_event_id);
    const written = await t.ctx.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.detail, 'past the end'));
    expect(written).toEqual([]);
  });

  it('follows `order` for the answer and the audit record when the page does not keep its own', async () => {
    const ordered = pagedStatement({
      name: 'test.ordered',
      read: rowReader<{ participant_id: number; rank: number }>()(['participant_id', 'rank']),
      auditAction: 'followup.list',
      order: ['rank', 'participant_id'],
    });
    const composed = ordered.compose({
      params: [],
      with: ['ids as (select * from (values (3, 1), (1, 2), (2, 1)) v(participant_id, rank))'],
      page: 'select ids.participant_id, ids.rank from ids',
      total: () => 'select 3 as total',
      audit: { actor, detail: 'worklist' },
    });
    const { rows } = await ordered.run(t.ctx.database.db, composed, false);
    expect(rows.map((r) => r.participant_id)).toEqual([2, 3, 1]);
    expect(await lastAudit()).toMatchObject({ action: 'followup.list', participant_ids: [2, 3, 1] });
  });
});
