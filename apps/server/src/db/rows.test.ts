import { describe, expect, it } from 'vitest';
import { rowReader, statementNamer } from './rows.js';

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
