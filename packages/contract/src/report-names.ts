import { addDays } from './programme.js';

// Without zod, like life-cycle-names.ts: the Reports page's shell reads these names before any
// schema is loaded. The schemas are in reports.ts, the tables both exports share in report-tables.ts.

/** The reports of `GET /api/reports/:name`, in the order the page shows them. */
export const REPORT_NAMES = ['referrals', 'flow', 'adherence', 'programme-weeks', 'videos', 'views'] as const;
export type ReportName = (typeof REPORT_NAMES)[number];

export const REPORT_TITLES: Record<ReportName, string> = {
  referrals: 'Referrals',
  flow: 'Flow',
  adherence: 'Adherence over time',
  'programme-weeks': 'Where people stop',
  videos: 'Videos',
  views: 'Views per day',
};

/** How rows are grouped in time: calendar months, or ISO weeks (Monday to Sunday). */
export const REPORT_GROUPINGS = ['month', 'week'] as const;
export type ReportGrouping = (typeof REPORT_GROUPINGS)[number];

/** The longest period a report covers. */
export const REPORT_MAX_YEARS = 3;

/** NHS small-number rule: with suppression on, a count from 1 to 4 is written as `<5`. */
export const SMALL_COUNT_LIMIT = 5;
export const SMALL_COUNT_TEXT = '<5';

/** Rows whose referral field was left empty. */
export const NOT_RECORDED_LABEL = 'Not recorded';

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar day written YYYY-MM-DD (2026-02-30 is refused, not rolled over). */
export function isCalendarDay(value: string): boolean {
  const match = ISO_DATE.exec(value);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === value;
}

/** The last day a period starting on `from` may end on: the day before `from` + 3 years. */
export function latestReportEnd(from: string): string {
  const year = Number(from.slice(0, 4)) + REPORT_MAX_YEARS;
  // 29 February plus whole years lands on 1 March when that year has none.
  const moved = isCalendarDay(`${year}${from.slice(4)}`) ? `${year}${from.slice(4)}` : `${year}-03-01`;
  return addDays(moved, -1);
}
