import { sql } from 'drizzle-orm';
import { addDays, type DashboardData } from '@pathway/contract';
import type { AppContext } from '../../context.js';
import { rowsOf } from '../../db/rows.js';
import { programmeToday } from '../../lib/programme-day.js';

/**
 * The dashboard's figures. Views come from the daily_views rollup (one row per day, kept in step
 * with seen_videos when views are recorded), never from seen_videos itself, so the page stays
 * fast however many views there are.
 */
export async function dashboardData(ctx: AppContext): Promise<DashboardData> {
  const yesterday = addDays(programmeToday(ctx), -1);
  const [counts] = rowsOf<{ participants: number; sets: number; yesterday: number; on_track: number; slightly: number; behind: number }>(
    await ctx.db.execute(sql`
      select
        (select count(*)::int from participants) as participants,
        (select count(*)::int from fitness_video_sets) as sets,
        coalesce((select views from daily_views where day = ${yesterday}::date), 0)::int as yesterday,
        count(*) filter (where p.days_behind <= 0)::int as on_track,
        count(*) filter (where p.days_behind between 1 and 2)::int as slightly,
        count(*) filter (where p.days_behind > 2)::int as behind
      from participants p
      join fitness_participation_progress pp on pp.participant_id = p.participant_id`),
  );
  const days = rowsOf<{ day: string; views: number }>(
    await ctx.db.execute(sql`select to_char(day, 'YYYY-MM-DD') as day, views from daily_views where views > 0 order by day`),
  );
  return {
    participantsCount: { counted: counts!.participants },
    videoSetCount: { counted: counts!.sets },
    yesterdayWatched: [{ created_count: counts!.yesterday }],
    seenCount: days.map((d) => ({ created_at: d.day, created_count: Number(d.views) })),
    participantsProgress: { onTrack: counts!.on_track, slightlyBehind: counts!.slightly, behind: counts!.behind },
  };
}
