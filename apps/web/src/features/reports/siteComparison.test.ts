import type { ReportName, ReportsAnswers } from '@pathway/contract';
import { describe, expect, it } from 'vitest';
import { HEADLINE_FIGURES } from './siteComparison';

const period = { from: '2026-01-01', to: '2026-02-28', by: 'month' as const };
const bucket = (period: string, starts_on: string) => ({ period, starts_on });

/** One site's answers over two months, as the reports API gives them. */
const answers: { [N in ReportName]: ReportsAnswers[N] } = {
  referrals: {
    report: 'referrals',
    period,
    rows: [
      { ...bucket('2026-01', '2026-01-01'), referred: 3, by_organisation: [], by_programme: [] },
      { ...bucket('2026-02', '2026-02-01'), referred: 4, by_organisation: [], by_programme: [] },
    ],
  },
  flow: {
    report: 'flow',
    period,
    rows: [
      {
        ...bucket('2026-01', '2026-01-01'),
        referred: 3,
        started: 2,
        completed: 1,
        withdrawn: 1,
        active: 1,
        median_days_to_start: 5,
        p90_days_to_start: 8,
      },
      {
        ...bucket('2026-02', '2026-02-01'),
        referred: 4,
        started: 3,
        completed: 0,
        withdrawn: 0,
        active: 4,
        median_days_to_start: 3,
        p90_days_to_start: 4,
      },
    ],
    withdrawal_reasons: [],
    days_to_start: { median: 4, p90: 7.4 },
  },
  adherence: {
    report: 'adherence',
    period,
    data_from: '2026-01-10',
    rows: [
      { ...bucket('2026-01', '2026-01-01'), as_of: '2026-01-31', on_track: 2, slightly_behind: 0, behind: 1 },
      // No day recorded yet this month: the comparison keeps January's.
      {
        ...bucket('2026-02', '2026-02-01'),
        as_of: null,
        on_track: null,
        slightly_behind: null,
        behind: null,
      },
    ],
  },
  'programme-weeks': {
    report: 'programme-weeks',
    period,
    rows: [
      { video_set_id: 1, set_name: 'Walking', week: 1, reached: 5, watched_all: 4, still_active: 5 },
      { video_set_id: 1, set_name: 'Walking', week: 2, reached: 3, watched_all: 1, still_active: 3 },
    ],
  },
  videos: { report: 'videos', period, rows: [] },
  views: {
    report: 'views',
    period,
    rows: [
      { ...bucket('2026-01', '2026-01-01'), views: 11 },
      { ...bucket('2026-02', '2026-02-01'), views: 6 },
    ],
  },
};

describe('the headline figures compared site by site', () => {
  it("are each report's totals over the period, adherence at its latest recorded day", () => {
    expect(Object.fromEntries(HEADLINE_FIGURES.map((f) => [f.key, f.of(answers)]))).toEqual({
      referred: 7,
      started: 5,
      completed: 1,
      withdrawn: 1,
      'days-to-start': 4,
      'on-track': 2,
      'slightly-behind': 0,
      behind: 1,
      'weeks-watched': 63,
      views: 17,
    });
  });

  it('are unknown, not zero, where the period holds nothing to count from', () => {
    const empty = {
      ...answers,
      flow: { ...answers.flow, days_to_start: { median: null, p90: null } },
      adherence: { ...answers.adherence, rows: [answers.adherence.rows[1]!] },
      'programme-weeks': { ...answers['programme-weeks'], rows: [] },
    };
    const figures = Object.fromEntries(HEADLINE_FIGURES.map((f) => [f.key, f.of(empty)]));
    expect(figures).toMatchObject({
      'days-to-start': null,
      'on-track': null,
      behind: null,
      'weeks-watched': null,
    });
  });
});
