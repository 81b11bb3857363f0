import { format, isValid, parseISO } from 'date-fns';
import { describe, expect, it } from 'vitest';
import { formatDay, parseDay } from './gridRow';

// The grid reads and writes dates of birth without date-fns (see gridRow.ts): as date-fns did.
describe('the grid date of birth', () => {
  it('reads a calendar day as parseISO does, and writes it as format dd/MM/yyyy did', () => {
    for (const iso of ['1900-01-01', '1950-02-28', '1960-02-29', '2000-12-31', '2026-03-29', '2026-10-25']) {
      const parsed = parseDay(iso);
      expect(parsed?.getTime()).toBe(parseISO(iso).getTime());
      expect(formatDay(parsed)).toBe(format(parseISO(iso), 'dd/MM/yyyy'));
    }
  });

  it('has no date for text that is no calendar day, where parseISO had an invalid one', () => {
    for (const iso of ['1961-02-29', '2026-13-01', '2026-04-31', '', 'soon']) {
      expect(parseDay(iso)).toBeNull();
      expect(isValid(parseISO(iso))).toBe(false);
    }
    expect(formatDay(null)).toBe('');
    expect(formatDay(new Date(Number.NaN))).toBe('');
  });
});
