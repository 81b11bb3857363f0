import { describe, expect, it } from 'vitest';
import { column, nullable, rowReader, rowsReader, statementNamer } from './rows.js';

interface SessionRow {
  session_id: string;
  created_at: Date;
  role: string | null;
}

describe('rowReader', () => {
  it('names each value by its position in the select list', () => {
    const read = rowReader<SessionRow>()(['session_id', 'created_at', 'role']);
    const at = new Date('2026-11-27T10:00:00Z');
    expect(read(['s-1', at, null])).toEqual({ session_id: 's-1', created_at: at, role: null });
    expect([['s-2', at, 'admin']].map(read)).toEqual([{ session_id: 's-2', created_at: at, role: 'admin' }]);
  });

  it('refuses, at compile time, a key list that leaves out a column of the row type', () => {
    // @ts-expect-error 'role' is not listed
    const read = rowReader<SessionRow>()(['session_id', 'created_at']);
    expect(read(['s-1', null])).toEqual({ session_id: 's-1', created_at: null });
  });
});

describe('statementNamer', () => {
  it('gives a text the same name each time and stops naming past its cap', () => {
    const name = statementNamer('family', 2);
    expect(name('select 1')).toBe('family.1');
    expect(name('select 2')).toBe('family.2');
    expect(name('select 1')).toBe('family.1');
    expect(name('select 3')).toBeUndefined();
  });
});

describe('rowsReader', () => {
  const read = rowsReader({
    id: column.integer,
    name: nullable(column.text),
    at: column.timestamp,
    kind: column.oneOf(['all', 'org']),
  });

  it('reads the named columns, each as its type, and leaves the others out', () => {
    const rows = read({
      rows: [{ id: '42', name: null, at: '2026-11-27 10:00:00.5+00', kind: 'org', other: 'x' }],
    });
    expect(rows).toEqual([{ id: 42, name: null, at: new Date('2026-11-27T10:00:00.500Z'), kind: 'org' }]);
  });

  it('throws naming the column and what it held, never the value', () => {
    const row = { id: 1, name: 'Ada Lovelace', at: new Date(), kind: 'all' };
    expect(() => read({ rows: [row, { ...row, name: 7 }] })).toThrow(
      'column "name" of row 2 is of type number, where text or null was expected',
    );
    expect(() => read({ rows: [{ ...row, id: 1.5 }] })).toThrow('column "id" of row 1 is of type number');
    expect(() => read({ rows: [{ ...row, id: '99999999999999999' }] })).toThrow('column "id"');
    expect(() => read({ rows: [{ ...row, kind: 'prog' }] })).toThrow('where one of all, org was expected');
    const { at: _, ...withoutAt } = row;
    expect(() => read({ rows: [withoutAt] })).toThrow('column "at" of row 1 is missing from the row');
    expect(() => read({ rows: [{ ...row, at: 'yesterday' }] })).toThrow('column "at"');
    expect(() => read({ rows: [{ ...row, id: 'Ada Lovelace' }] })).toThrow(
      /^column "id" of row 1 is of type string, where an integer was expected$/,
    );
    expect(() => read({})).toThrow('not the result of a statement that returns rows');
  });
});
