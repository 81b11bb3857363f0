// Without zod: the Reports page builds its tables and CSV files with these, and the server its
// XLSX workbook, so a table is laid out (and small numbers suppressed) once for all three.
import type {
  AdherenceReport,
  FlowReport,
  ProgrammeWeeksReport,
  ReferralsReport,
  ReportsAnswers,
  VideosReport,
  ViewsReport,
} from './reports.js';
import { WITHDRAWAL_REASON_LABELS } from './life-cycle-names.js';
import { NOT_RECORDED_LABEL, SMALL_COUNT_LIMIT, SMALL_COUNT_TEXT, type ReportName } from './report-names.js';
import type { OutcomesReport } from './outcomes.js';
import { unitLabel } from './outcome-names.js';

export type ReportCell = string | number | null;

export interface ReportTable {
  /** File and sheet name: `referrals-by-organisation`. */
  key: string;
  title: string;
  columns: string[];
  rows: ReportCell[][];
}

/** A count as shared: with suppression on, 1 to 4 become `<5` (0 stays: nobody to identify). */
export function shownCount(value: number | null, suppress: boolean): ReportCell {
  if (value === null) return null;
  return suppress && value > 0 && value < SMALL_COUNT_LIMIT ? SMALL_COUNT_TEXT : value;
}

/** Whole per cent of `part` in `whole`; none when either count is suppressed (it would give it away). */
export function shownShare(part: number, whole: number, suppress: boolean): ReportCell {
  if (whole === 0) return null;
  if (
    suppress &&
    (shownCount(part, true) === SMALL_COUNT_TEXT || shownCount(whole, true) === SMALL_COUNT_TEXT)
  )
    return null;
  return Math.round((1000 * part) / whole) / 10;
}

/** A statistic of a group (median days): none when the group is small enough to be suppressed. */
function shownStatistic(value: number | null, groupSize: number, suppress: boolean): ReportCell {
  if (value === null) return null;
  return suppress && groupSize < SMALL_COUNT_LIMIT ? null : Math.round(value * 10) / 10;
}

function namesOf(rows: { name: string }[][]): string[] {
  return [...new Set(rows.flatMap((r) => r.map((c) => c.name)))].sort((a, b) =>
    a === NOT_RECORDED_LABEL ? 1 : b === NOT_RECORDED_LABEL ? -1 : a.localeCompare(b, 'en'),
  );
}

function pivot(
  report: ReferralsReport,
  pick: (row: ReferralsReport['rows'][number]) => { name: string; count: number }[],
  suppress: boolean,
): { columns: string[]; rows: ReportCell[][] } {
  const names = namesOf(report.rows.map(pick));
  return {
    columns: ['Period', 'Starts on', 'Referred', ...names],
    rows: report.rows.map((row) => {
      const byName = new Map(pick(row).map((c) => [c.name, c.count]));
      return [
        row.period,
        row.starts_on,
        shownCount(row.referred, suppress),
        ...names.map((n) => shownCount(byName.get(n) ?? 0, suppress)),
      ];
    }),
  };
}

function referralsTables(report: ReferralsReport, suppress: boolean): ReportTable[] {
  return [
    {
      key: 'referrals-by-organisation',
      title: 'Referrals by referring organisation',
      ...pivot(report, (r) => r.by_organisation, suppress),
    },
    {
      key: 'referrals-by-programme',
      title: 'Referrals by programme referred to',
      ...pivot(report, (r) => r.by_programme, suppress),
    },
  ];
}

function flowTables(report: FlowReport, suppress: boolean): ReportTable[] {
  return [
    {
      key: 'flow',
      title: 'Flow per referral cohort',
      columns: [
        'Cohort',
        'Starts on',
        'Referred',
        'Started',
        'Completed',
        'Withdrawn',
        'Still active',
        'Median days to start',
        '90th percentile days to start',
      ],
      rows: report.rows.map((r) => [
        r.period,
        r.starts_on,
        shownCount(r.referred, suppress),
        shownCount(r.started, suppress),
        shownCount(r.completed, suppress),
        shownCount(r.withdrawn, suppress),
        shownCount(r.active, suppress),
        shownStatistic(r.median_days_to_start, r.started, suppress),
        shownStatistic(r.p90_days_to_start, r.started, suppress),
      ]),
    },
    {
      key: 'withdrawal-reasons',
      title: 'Withdrawals by reason',
      columns: ['Reason', 'Withdrawn'],
      rows: report.withdrawal_reasons.map((r) => [
        r.reason ? WITHDRAWAL_REASON_LABELS[r.reason] : NOT_RECORDED_LABEL,
        shownCount(r.count, suppress),
      ]),
    },
  ];
}

function adherenceTables(report: AdherenceReport, suppress: boolean): ReportTable[] {
  return [
    {
      key: 'adherence',
      title: 'Adherence over time (active participants with a programme)',
      columns: ['Period', 'Starts on', 'As of', 'On track', 'Slightly behind', 'Behind'],
      rows: report.rows.map((r) => [
        r.period,
        r.starts_on,
        r.as_of,
        shownCount(r.on_track, suppress),
        shownCount(r.slightly_behind, suppress),
        shownCount(r.behind, suppress),
      ]),
    },
  ];
}

function programmeWeeksTables(report: ProgrammeWeeksReport, suppress: boolean): ReportTable[] {
  return [
    {
      key: 'programme-weeks',
      title: 'Where people stop (participants who started in the period)',
      columns: [
        'Video set',
        'Week',
        'Reached the week',
        'Watched every video',
        'Watched every video (%)',
        'Still active',
        'Still active (%)',
      ],
      rows: report.rows.map((r) => [
        r.set_name,
        r.week,
        shownCount(r.reached, suppress),
        shownCount(r.watched_all, suppress),
        shownShare(r.watched_all, r.reached, suppress),
        shownCount(r.still_active, suppress),
        shownShare(r.still_active, r.reached, suppress),
      ]),
    },
  ];
}

function videosTables(report: VideosReport, suppress: boolean): ReportTable[] {
  return [
    {
      key: 'videos',
      title: 'Views per video',
      columns: ['Video set', 'Week', 'Day', 'Title', 'Views', 'Least watched'],
      rows: report.rows.map((r) => [
        r.set_name,
        r.week,
        r.day,
        r.title,
        shownCount(r.views, suppress),
        r.least_watched ? 'yes' : '',
      ]),
    },
  ];
}

function viewsTables(report: ViewsReport, suppress: boolean): ReportTable[] {
  return [
    {
      key: 'views',
      title: 'Views',
      columns: ['Period', 'Starts on', 'Views'],
      rows: report.rows.map((r) => [r.period, r.starts_on, shownCount(r.views, suppress)]),
    },
  ];
}

/** The tables of one report's answer, as the page shows them and both exports write them. */
export function reportTables(a: ReportsAnswers[ReportName], suppress: boolean): ReportTable[] {
  switch (a.report) {
    case 'referrals':
      return referralsTables(a, suppress);
    case 'flow':
      return flowTables(a, suppress);
    case 'adherence':
      return adherenceTables(a, suppress);
    case 'programme-weeks':
      return programmeWeeksTables(a, suppress);
    case 'videos':
      return videosTables(a, suppress);
    case 'views':
      return viewsTables(a, suppress);
  }
}

export const OUTCOMES_REPORT_TITLE = 'Outcomes';

/**
 * The outcomes report of one or more measures as one table, a row per measure. Completeness comes
 * first (completed, with a baseline, an end, both): the figures below it are of the pairs only, and
 * a reader must see how many completers they leave out. Statistics of fewer than 5 pairs are left
 * empty with suppression on.
 */
export function outcomesTable(reports: OutcomesReport[], suppress: boolean): ReportTable {
  return {
    key: 'outcomes',
    title: 'Outcomes of participants who completed in the period (baseline and end of programme)',
    columns: [
      'Measure',
      'Unit',
      'MCID',
      'Completed',
      'With a baseline',
      'With an end result',
      'With both',
      'With both (%)',
      'Baseline only after week 1 (not used)',
      'Baseline median',
      'Baseline Q1',
      'Baseline Q3',
      'End median',
      'End Q1',
      'End Q3',
      'Median change',
      'Improved by the MCID or more',
      'Improved (%)',
      'Within the MCID',
      'Within the MCID (%)',
      'Worse by the MCID or more',
      'Worse (%)',
    ],
    rows: reports.map((r) => {
      const stat = (v: number | null) => shownStatistic(v, r.with_both, suppress);
      const part = (n: number | null) => (n === null ? null : shownCount(n, suppress));
      const share = (n: number | null) => (n === null ? null : shownShare(n, r.with_both, suppress));
      return [
        r.measure_name,
        unitLabel(r.unit),
        r.mcid,
        shownCount(r.completed, suppress),
        shownCount(r.with_baseline, suppress),
        shownCount(r.with_end, suppress),
        shownCount(r.with_both, suppress),
        shownShare(r.with_both, r.completed, suppress),
        shownCount(r.baseline_late, suppress),
        stat(r.baseline.median),
        stat(r.baseline.q1),
        stat(r.baseline.q3),
        stat(r.end.median),
        stat(r.end.q1),
        stat(r.end.q3),
        stat(r.median_change),
        part(r.improved),
        share(r.improved),
        part(r.unchanged),
        share(r.unchanged),
        part(r.worse),
        share(r.worse),
      ];
    }),
  };
}

/**
 * A CSV cell as the participant export writes it: a value a spreadsheet would run as a formula
 * (=, +, -, @) is prefixed with a quote, and one with a comma, quote or line break is quoted.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- cells are scalars (text, numbers, booleans, dates)
  let text = Array.isArray(value) ? value.join(' ') : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A table as CSV, with the participant export's conventions: byte-order mark, CRLF, quoted cells. */
export function reportCsv(table: ReportTable): string {
  const lines = [table.columns, ...table.rows].map((cells) => cells.map(csvCell).join(','));
  return `\uFEFF${lines.map((line) => `${line}\r\n`).join('')}`;
}
