import { format, formatDistanceStrict, parseISO } from 'date-fns';
import { describe, expect, it } from 'vitest';
import { contactAgo, contactExact, contactShort } from './contactTime';

// contactTime.ts writes out what date-fns did before (to keep date-fns off the participant list's
// first download): the words must stay the same.
const now = new Date('2026-03-29T12:00:00.000Z');
const minute = 60_000;
const offsets = [
  1, 1.4, 1.6, 2, 30, 59, 59.5, 60, 89, 90, 91, 120, 600, 1439, 1440, 2000, 2160, 2880, 10_000, 20_000,
  43_199, 43_200, 60_000, 100_000, 400_000, 500_000, 525_599, 525_600, 700_000, 1_000_000, 5_000_000,
].flatMap((m) => [m * minute, m * minute + 7_000, -m * minute, -m * minute - 7_000]);

describe('contactAgo', () => {
  it('reads as date-fns formatDistanceStrict with a suffix, either side of now', () => {
    for (const offset of offsets) {
      const at = new Date(now.getTime() + offset);
      const expected =
        Math.abs(offset) < minute ? 'Just now' : formatDistanceStrict(at, now, { addSuffix: true });
      expect([offset, contactAgo(at.toISOString(), now)]).toEqual([offset, expected]);
    }
  });

  it('says Never for no time or a time it cannot read', () => {
    expect(contactAgo(null, now)).toBe('Never');
    expect(contactAgo('', now)).toBe('Never');
    expect(contactAgo('not a time', now)).toBe('Never');
    expect(contactAgo('2026-03-29T11:59:30.000Z', now)).toBe('Just now');
  });
});

describe('contactExact', () => {
  it('is DD/MM/YYYY HH:mm in the local time zone, as date-fns format wrote it', () => {
    for (const iso of ['2026-03-29T00:59:00.000Z', '2026-10-25T01:30:00.000Z', '1999-12-31T23:59:59.999Z']) {
      expect(contactExact(iso)).toBe(format(parseISO(iso), 'dd/MM/yyyy HH:mm'));
    }
    expect(contactExact(null)).toBe('');
    expect(contactExact('not a time')).toBe('');
  });
});

describe('contactShort', () => {
  it('gives the day, the short month and the time, with the year only when it is not this one', () => {
    // The browser's time zone decides the day and the hour: the test reads them the same way.
    const at = new Date(2026, 2, 3, 14, 5);
    expect(contactShort(at.toISOString(), now)).toBe('3 Mar, 14:05');
    const lastYear = new Date(2025, 10, 28, 9, 0);
    expect(contactShort(lastYear.toISOString(), now)).toBe('28 Nov 2025, 09:00');
    expect(contactShort(null, now)).toBe('');
    expect(contactShort('not a time', now)).toBe('');
  });
});
