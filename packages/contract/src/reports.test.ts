import { describe, expect, it } from 'vitest';
import { calendarDate } from './programme.js';
import { reportCsv, reportTables, shownCount, shownShare } from './report-tables.js';
import { isCalendarDay, latestReportEnd, reportExportQuery, reportQuery } from './reports.js';
import { messages } from './messages.js';

describe('the period of a report', () => {
  it('takes real calendar days only', () => {
    expect(isCalendarDay('2024-02-29')).toBe(true);
    expect(isCalendarDay('2025-02-29')).toBe(false);
    expect(isCalendarDay('2025-13-01')).toBe(false);
    expect(isCalendarDay('2025-1-01')).toBe(false);
  });

  it('ends at most the day before the same day 3 years on (29 February: the last day of February)', () => {
    expect(latestReportEnd('2023-01-01')).toBe('2025-12-31');
    expect(latestReportEnd('2024-02-29')).toBe('2027-02-28');
    expect(latestReportEnd('2024-03-01')).toBe('2027-02-28');
  });

  it('says what is wrong with a period', () => {
    const issue = (q: Record<string, string>) => reportQuery.safeParse(q).error?.issues[0]?.message;
    expect(issue({ from: '2026-01-02', to: '2026-01-01' })).toBe(messages.reports.fromAfterTo);
    expect(issue({ from: '2023-01-01', to: '2026-01-01' })).toBe(messages.reports.tooLong);
    expect(issue({ from: 'yesterday', to: '2026-01-01' })).toBe(messages.reports.badDate('from'));
    expect(issue({ from: '2026-01-01', to: '2026-01-01', by: 'year' })).toBe(messages.reports.badGrouping);
    expect(reportQuery.parse({ from: '2026-01-01', to: '2026-01-01' })).toEqual({
      from: '2026-01-01',
      to: '2026-01-01',
      by: 'month',
    });
    expect(
      reportExportQuery.parse({ from: '2026-01-01', to: '2026-01-31', suppress_small: 'true' }),
    ).toMatchObject({
      suppress_small: true,
    });
  });
});

describe('small numbers', () => {
  it('writes 1 to 4 as <5 when suppressing, never 0 or 5', () => {
    expect([0, 1, 4, 5, 12].map((n) => shownCount(n, true))).toEqual([0, '<5', '<5', 5, 12]);
    expect([0, 1, 4, 5].map((n) => shownCount(n, false))).toEqual([0, 1, 4, 5]);
  });

  it('leaves a share empty when either of its counts is suppressed', () => {
    expect(shownShare(3, 10, false)).toBe(30);
    expect(shownShare(3, 10, true)).toBeNull();
    expect(shownShare(6, 9, true)).toBe(66.7);
    expect(shownShare(0, 0, false)).toBeNull();
  });
});

describe('CSV of a report table', () => {
  it('follows the participant export: byte-order mark, CRLF, quoted cells, formulas defused', () => {
    const [table] = reportTables(
      {
        report: 'videos',
        period: { from: '2026-01-01', to: '2026-01-31', by: 'month' },
        rows: [
          {
            video_set_id: 1,
            set_name: 'Chair, "gentle"',
            video_id: 2,
            title: '=1+1',
            week: 1,
            day: 2,
            views: 3,
            least_watched: true,
          },
        ],
      },
      true,
    );
    expect(reportCsv(table!)).toBe(
      '\uFEFFVideo set,Week,Day,Title,Views,Least watched\r\n"Chair, ""gentle""",1,2,\'=1+1,<5,yes\r\n',
    );
  });
});

describe('calendarDate', () => {
  it('keeps a formatter per time zone: interleaved zones each get their own calendar', () => {
    const instant = new Date('2026-01-01T03:00:00Z');
    expect(calendarDate(instant, 'Europe/London')).toBe('2026-01-01');
    expect(calendarDate(instant, 'America/New_York')).toBe('2025-12-31');
    expect(calendarDate(instant, 'Europe/London')).toBe('2026-01-01');
    expect(calendarDate(new Date('2026-01-01T12:00:00Z'), 'Pacific/Kiritimati')).toBe('2026-01-02');
    expect(() => calendarDate(instant, 'Not/AZone')).toThrow(RangeError);
  });
});
