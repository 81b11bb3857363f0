import { z } from 'zod';
import { limits } from './limits.js';
import { siteFilter } from './organisations.js';
import { addDays } from './programme.js';

const counted = z.object({ counted: z.number().int() });

/** `GET /api/dashboard` */
export const dashboardQuery = z.object(siteFilter);

/** `GET /api/dashboard` (spec §3 "Dashboard data"). */
export const dashboardData = z
  .object({
    participantsCount: counted.describe('Active participants (discharged ones are not counted)'),
    videoSetCount: counted.describe("The organisation's video sets and the shared ones, whatever the site"),
    yesterdayWatched: z
      .array(z.object({ created_count: z.number().int() }))
      .describe('One item: videos watched yesterday'),
    seenCount: z
      .array(z.object({ created_at: z.string().describe('YYYY-MM-DD'), created_count: z.number().int() }))
      .describe(
        'Videos watched per day, oldest first: the days with views among the chart window (the 8 days ending at the latest day with views)',
      ),
    participantsProgress: z
      .object({
        onTrack: z.number().int(),
        slightlyBehind: z.number().int(),
        behind: z.number().int(),
      })
      .describe('Active participants with a programme, by adherence state'),
  })
  .meta({ id: 'DashboardData' });
export type DashboardData = z.infer<typeof dashboardData>;

export interface DailyCount {
  created_at: string;
  created_count: number;
}

/** §9: the sum of the daily counts divided by the number of days in the data (0 without data). */
export function averageVideosPerDay(seenCount: readonly DailyCount[]): number {
  if (seenCount.length === 0) return 0;
  return seenCount.reduce((sum, d) => sum + d.created_count, 0) / seenCount.length;
}

/**
 * §2: the chart runs from 7 days before the latest day in the data to that day, with 0 on days
 * without views. No data, no points.
 */
export function watchedVideosChart(seenCount: readonly DailyCount[]): DailyCount[] {
  if (seenCount.length === 0) return [];
  const latest = seenCount.reduce(
    (max, d) => (d.created_at > max ? d.created_at : max),
    seenCount[0]!.created_at,
  );
  const byDay = new Map(seenCount.map((d) => [d.created_at, d.created_count]));
  const points: DailyCount[] = [];
  for (let offset = -limits.chartWindowDays; offset <= 0; offset++) {
    const day = addDays(latest, offset);
    points.push({ created_at: day, created_count: byDay.get(day) ?? 0 });
  }
  return points;
}

/** The second row of cards appears only when someone has progress. */
export function hasProgressData(progress: DashboardData['participantsProgress']): boolean {
  return progress.onTrack + progress.slightlyBehind + progress.behind > 0;
}
