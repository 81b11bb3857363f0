import { describe, expect, it } from 'vitest';
import { formatShortDate } from './dates';

describe('formatShortDate', () => {
  const today = new Date(2026, 10, 28);

  it('gives the day and the short month, with the year only when it is not this one, on one line', () => {
    expect(formatShortDate('2026-11-03', today)).toBe('3\u00a0Nov');
    expect(formatShortDate('2025-12-31', today)).toBe('31\u00a0Dec\u00a02025');
  });

  it('gives back a text it cannot read as a day', () => {
    expect(formatShortDate('someday', today)).toBe('someday');
  });
});
