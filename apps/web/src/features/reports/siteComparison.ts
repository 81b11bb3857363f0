import type { ReportName, ReportsAnswers } from '@pathway/contract';

/** One line of the side-by-side comparison: a report's headline figure, for each site. */
export interface HeadlineFigure {
  key: string;
  report: ReportName;
  label: string;
  /** The figure of one site's answer; null when the period has none (no count recorded yet). */
  of: (answers: { [N in ReportName]: ReportsAnswers[N] }) => number | null;
  /** A share (0 to 100) rather than a count. */
  percent?: true;
}

const sum = <R>(rows: readonly R[], value: (row: R) => number | null): number =>
  rows.reduce((total, row) => total + (value(row) ?? 0), 0);

/** The adherence report's last bucket with a recorded day: the period's latest counts. */
function latestAdherence(answer: ReportsAnswers['adherence']) {
  return [...answer.rows].reverse().find((row) => row.as_of !== null) ?? null;
}

function share(part: number, whole: number): number | null {
  return whole === 0 ? null : Math.round((100 * part) / whole);
}

/**
 * The figures the Reports page compares site by site: each report's totals over the period (or,
 * for adherence, its latest recorded day), the same for every site so the columns line up.
 */
export const HEADLINE_FIGURES: readonly HeadlineFigure[] = [
  {
    key: 'referred',
    report: 'referrals',
    label: 'Referred',
    of: (a) => sum(a.referrals.rows, (r) => r.referred),
  },
  { key: 'started', report: 'flow', label: 'Started', of: (a) => sum(a.flow.rows, (r) => r.started) },
  { key: 'completed', report: 'flow', label: 'Completed', of: (a) => sum(a.flow.rows, (r) => r.completed) },
  { key: 'withdrawn', report: 'flow', label: 'Withdrawn', of: (a) => sum(a.flow.rows, (r) => r.withdrawn) },
  {
    key: 'days-to-start',
    report: 'flow',
    label: 'Median days from referral to start',
    of: (a) => a.flow.days_to_start.median,
  },
  {
    key: 'on-track',
    report: 'adherence',
    label: 'On track (latest day recorded)',
    of: (a) => latestAdherence(a.adherence)?.on_track ?? null,
  },
  {
    key: 'slightly-behind',
    report: 'adherence',
    label: 'Slightly behind (latest day recorded)',
    of: (a) => latestAdherence(a.adherence)?.slightly_behind ?? null,
  },
  {
    key: 'behind',
    report: 'adherence',
    label: 'Behind (latest day recorded)',
    of: (a) => latestAdherence(a.adherence)?.behind ?? null,
  },
  {
    key: 'weeks-watched',
    report: 'programme-weeks',
    label: 'Programme weeks watched in full',
    percent: true,
    of: (a) =>
      share(
        sum(a['programme-weeks'].rows, (r) => r.watched_all),
        sum(a['programme-weeks'].rows, (r) => r.reached),
      ),
  },
  { key: 'views', report: 'views', label: 'Videos watched', of: (a) => sum(a.views.rows, (r) => r.views) },
];
