import { z } from 'zod';
import { messages } from './messages.js';
import { siteFilter } from './organisations.js';
import { WITHDRAWAL_REASONS } from './life-cycle-names.js';
import { REPORT_GROUPINGS, REPORT_NAMES, isCalendarDay, latestReportEnd } from './report-names.js';

export * from './report-names.js';

const reportDay = (field: 'from' | 'to') =>
  z
    .string({ error: messages.reports.badDate(field) })
    .refine(isCalendarDay, { error: messages.reports.badDate(field) })
    .describe('YYYY-MM-DD, a day in ADHERENCE_CHECK_TZ (inclusive)');

const periodShape = {
  from: reportDay('from'),
  to: reportDay('to'),
  by: z
    .enum(REPORT_GROUPINGS, { error: messages.reports.badGrouping })
    .default('month')
    .describe('month, or ISO week (Monday to Sunday)'),
  ...siteFilter,
};

function checkPeriod(period: { from: string; to: string }, ctx: z.RefinementCtx) {
  if (!isCalendarDay(period.from) || !isCalendarDay(period.to)) return;
  if (period.from > period.to)
    ctx.addIssue({ code: 'custom', path: ['to'], message: messages.reports.fromAfterTo });
  else if (period.to > latestReportEnd(period.from))
    ctx.addIssue({ code: 'custom', path: ['to'], message: messages.reports.tooLong });
}

/** `GET /api/reports/:name` */
export const reportQuery = z.object(periodShape).superRefine(checkPeriod);
export type ReportQuery = z.infer<typeof reportQuery>;

/** `GET /api/reports/export.xlsx` */
export const reportExportQuery = z
  .object({
    ...periodShape,
    suppress_small: z
      .enum(['true', 'false'], { error: messages.reports.badSuppress })
      .default('false')
      .transform((value) => value === 'true')
      .describe(`true: counts from 1 to 4 are written as "<5" (NHS small-number rule)`),
  })
  .superRefine(checkPeriod);

export const reportParams = z.object({
  name: z.enum(REPORT_NAMES, { error: messages.reports.unknown }).describe(REPORT_NAMES.join(', ')),
});

const period = z.object({ from: z.string(), to: z.string(), by: z.enum(REPORT_GROUPINGS) });
const bucket = {
  period: z.string().describe('2026-03 (month) or 2026-W09 (ISO week)'),
  starts_on: z.string().describe('First day of the month or week (may be before `from`)'),
};
const count = z.number().int();
const namedCount = z.object({ name: z.string(), count });

export const referralsReport = z.object({
  report: z.literal('referrals'),
  period,
  rows: z.array(
    z.object({
      ...bucket,
      referred: count,
      by_organisation: z.array(namedCount).describe('Referring organisations with a referral, by name'),
      by_programme: z.array(namedCount).describe('Programmes referred to with a referral, by name'),
    }),
  ),
});

export const flowReport = z.object({
  report: z.literal('flow'),
  period,
  rows: z.array(
    z.object({
      ...bucket,
      referred: count.describe('Registered in this period (the cohort)'),
      started: count.describe('Of them, with a tablet and a programme'),
      completed: count,
      withdrawn: count,
      active: count.describe('Still active (neither completed nor withdrawn)'),
      median_days_to_start: z.number().nullable(),
      p90_days_to_start: z.number().nullable(),
    }),
  ),
  withdrawal_reasons: z
    .array(z.object({ reason: z.enum(WITHDRAWAL_REASONS).nullable().describe('null: none recorded'), count }))
    .describe('Withdrawals of the whole period’s cohorts, by reason'),
  days_to_start: z.object({ median: z.number().nullable(), p90: z.number().nullable() }),
});

export const adherenceReport = z.object({
  report: z.literal('adherence'),
  period,
  data_from: z.string().nullable().describe('First day the daily check recorded its counts'),
  rows: z.array(
    z.object({
      ...bucket,
      as_of: z.string().nullable().describe('The last recorded day of the bucket within the period'),
      on_track: count.nullable(),
      slightly_behind: count.nullable(),
      behind: count.nullable(),
    }),
  ),
});

export const programmeWeeksReport = z.object({
  report: z.literal('programme-weeks'),
  period,
  rows: z.array(
    z.object({
      video_set_id: count,
      set_name: z.string(),
      week: count,
      reached: count.describe('Started in the period and whose week had begun by its end'),
      watched_all: count.describe('Of them, watched every video of the week by the end of the period'),
      still_active: count.describe('Of them, not discharged before the week began'),
    }),
  ),
});

export const videosReport = z.object({
  report: z.literal('videos'),
  period,
  rows: z.array(
    z.object({
      video_set_id: count,
      set_name: z.string(),
      video_id: count,
      title: z.string(),
      week: count,
      day: count,
      views: count,
      least_watched: z.boolean(),
    }),
  ),
});

export const viewsReport = z.object({
  report: z.literal('views'),
  period,
  rows: z.array(z.object({ ...bucket, views: count })),
});

export const reportSchemas = {
  referrals: referralsReport,
  flow: flowReport,
  adherence: adherenceReport,
  'programme-weeks': programmeWeeksReport,
  videos: videosReport,
  views: viewsReport,
} as const;

export type ReportsAnswers = { [N in keyof typeof reportSchemas]: z.infer<(typeof reportSchemas)[N]> };
export type ReferralsReport = ReportsAnswers['referrals'];
export type FlowReport = ReportsAnswers['flow'];
export type AdherenceReport = ReportsAnswers['adherence'];
export type ProgrammeWeeksReport = ReportsAnswers['programme-weeks'];
export type VideosReport = ReportsAnswers['videos'];
export type ViewsReport = ReportsAnswers['views'];

export const reportAnswer = z
  .discriminatedUnion('report', [
    referralsReport,
    flowReport,
    adherenceReport,
    programmeWeeksReport,
    videosReport,
    viewsReport,
  ])
  .meta({ id: 'Report' });
