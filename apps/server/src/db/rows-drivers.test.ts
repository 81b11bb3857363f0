import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { column, nullable, rowsReader } from './rows.js';

/** rowsReader's columns against what each driver really gives for them (run on both databases). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("rowsReader's columns on this database's driver", () => {
  it('read every type as the columns say, whichever driver gave it', async () => {
    const read = rowsReader({
      int4: column.integer,
      int8: column.integer,
      float8: column.number,
      text: column.text,
      bool: column.boolean,
      date: column.date,
      at: column.timestamp,
      none: nullable(column.timestamp),
      kind: column.oneOf(['org', 'prog']),
    });
    const rows = read(
      await t.ctx.database.db.execute(sql`
        select 7::int as int4, count(*) as int8, 0.5::float8 as float8, 'x' as text, true as bool,
          '2026-03-01'::date as date, '2026-03-01 10:20:30.456789+01'::timestamptz as at,
          null::timestamptz as none, 'prog' as kind
        from (values (1), (2)) v`),
    );
    expect(rows).toEqual([
      {
        int4: 7,
        int8: 2,
        float8: 0.5,
        text: 'x',
        bool: true,
        date: '2026-03-01',
        at: new Date('2026-03-01T09:20:30.456Z'),
        none: null,
        kind: 'prog',
      },
    ]);
  });
});
