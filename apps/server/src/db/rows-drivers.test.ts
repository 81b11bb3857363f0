import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { arrayRows, column, nullable, rowsOf, rowsReader } from './rows.js';

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

/**
 * Text as the database holds it, read back exactly: PGlite's answer reader is patched to decode each
 * value where it lies instead of copying it first (patches/README.md). A name, a note or an NHS
 * number read wrong is a record shown wrong, so every UTF-8 width, a value of 110 KB, empty text
 * and NULL are checked on both drivers.
 */
describe('text read back from this database', () => {
  const values = [
    'Ada Lovelace',
    'Zoë Brontë-Ćwik',
    'ｆｕｌｌ width and ≥ ≤ →',
    'emoji 😀 and 𝄞',
    'Z̷̢͈̓a̸͎͠l̶̪͋g̵̰̈o̵͍̚',
    '',
    `${'é'.repeat(40_000)}😀${'x'.repeat(30_000)}`,
    '\r\n\t',
  ];

  it('is the text written, as rows of names and as arrays', async () => {
    const db = t.ctx.database.db;
    const asArrays = await arrayRows(db, {
      sql: 'select v, length(v)::int, null::text from unnest($1::text[]) with ordinality as u(v, n) order by n',
      params: [values],
    });
    expect(asArrays).toEqual(values.map((v) => [v, [...v].length, null]));

    // A column named in more than ASCII: its name is read by the same reader.
    const named = rowsOf<Record<string, unknown>>(
      await db.execute(
        sql`select v as "nàme 😀", n::int as n from unnest(array[${sql.join(
          values.map((v) => sql`${v}`),
          sql`, `,
        )}]::text[]) with ordinality as u(v, n) order by n`,
      ),
    );
    expect(named).toEqual(values.map((v, i) => ({ 'nàme 😀': v, n: i + 1 })));
  });
});

/**
 * Each value under its own column, parsed as its column's type: PGlite's result parser is patched
 * to choose each column's parser once per answer instead of once per value (patches/README.md). A
 * value under the wrong column is a date of birth read as a contact date, or one person's figure on
 * another's row, so the NULLs move from column to column between rows, and the types differ from
 * one column to the next.
 */
describe('columns of an answer, each in its place', () => {
  const statement = `select id, name, born, seen, active, score, tags, detail
    from (values
      (1, 'Ada', '1990-01-02'::date, '2026-03-01 10:00:00+00'::timestamptz, true, 1.5::float8, array[1, 2], '{"k": 1}'::jsonb),
      (2, null, '1985-05-06'::date, null, false, null, array[3], null),
      (3, 'Zoë', null, '2026-03-02 11:30:00+00'::timestamptz, null, 2.25::float8, null, '{"k": [2]}'::jsonb)
    ) as v(id, name, born, seen, active, score, tags, detail) order by id`;
  const expected = [
    [1, 'Ada', '1990-01-02', new Date('2026-03-01T10:00:00Z'), true, 1.5, [1, 2], { k: 1 }],
    [2, null, '1985-05-06', null, false, null, [3], null],
    [3, 'Zoë', null, new Date('2026-03-02T11:30:00Z'), null, 2.25, null, { k: [2] }],
  ];
  const names = ['id', 'name', 'born', 'seen', 'active', 'score', 'tags', 'detail'];

  it('as arrays, a date kept as its text by the caller’s own parser', async () => {
    expect(await arrayRows(t.ctx.database.db, { sql: statement, params: [] })).toEqual(expected);
  });

  it('as rows of names', async () => {
    const rows = rowsOf<Record<string, unknown>>(await t.ctx.database.db.execute(sql.raw(statement)));
    // Drizzle's own reading of dates and times differs by driver (a Date, or the text as sent); the
    // day and the instant are the same.
    const dayOf = (value: unknown) =>
      value instanceof Date ? value.toISOString().slice(0, 10) : (value as string | null);
    const instantOf = (value: unknown) => (value === null ? null : new Date(value as string | Date));
    expect(rows.map((row) => ({ ...row, born: dayOf(row.born), seen: instantOf(row.seen) }))).toEqual(
      expected.map((values) => Object.fromEntries(names.map((name, i) => [name, values[i]]))),
    );
    expect(rows.map((row) => Object.keys(row))).toEqual(expected.map(() => names));
  });
});
