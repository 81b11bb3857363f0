import { sql } from 'drizzle-orm';
import { addDays, limits, type DashboardData } from '@pathway/contract';
import type { AppContext } from '../../context.js';
import { participantCounts } from '../../db/participant-tally.js';
import { column, rowsReader } from '../../db/rows.js';
import { programmeToday } from '../../lib/programme-day.js';

/**
 * The dashboard's figures. Views come from the daily_views rollup (one row per day, kept in step
 * with seen_videos when views are recorded), never from seen_videos itself, so the page stays
 * fast however many views there are.
 */
const readFigures = rowsReader({ sets: column.integer, yesterday: column.integer });
const readDays = rowsReader({ day: column.date, views: column.integer });

export async function dashboardData(ctx: AppContext): Promise<DashboardData> {
  const yesterday = addDays(programmeToday(ctx), -1);
  // Participant figures come from the tally (db/participant-tally.ts): the same numbers as counting
  // participants joined to their programmes, without reading every participant on each request.
  const [[counts], tally] = await Promise.all([
    ctx.db
      .execute(
        sql`
      select
        (select count(*)::int from fitness_video_sets) as sets,
        coalesce((select sum(views) from daily_views where day = ${yesterday}::date), 0)::int as yesterday`,
      )
      .then(readFigures),
    // Active participants only: a discharged participant has left the programme.
    participantCounts(ctx.db, 'active'),
  ]);
  const days = readDays(
    await ctx.db.execute(
      // Only what the chart shows: the days with views among the chart's window, which
      // ends at the latest day with views; a range of the primary key, not every day since the start.
      sql`select to_char(day, 'YYYY-MM-DD') as day, sum(views)::int as views from daily_views
        where views > 0
          and day >= (select max(day) from daily_views where views > 0) - ${limits.chartWindowDays}::int
        group by day
        order by day`,
    ),
  );
  return {
    participantsCount: { counted: tally.all[0] + tally.all[1] + tally.all[2] },
    videoSetCount: { counted: counts!.sets },
    yesterdayWatched: [{ created_count: counts!.yesterday }],
    seenCount: days.map((d) => ({ created_at: d.day, created_count: d.views })),
    participantsProgress: {
      onTrack: tally.withProgramme[0],
      slightlyBehind: tally.withProgramme[1],
      behind: tally.withProgramme[2],
    },
  };
}
