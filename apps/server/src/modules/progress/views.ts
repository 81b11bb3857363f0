import { and, eq, inArray, sql } from 'drizzle-orm';
import { messages } from '@pathway/contract';
import type { AppContext } from '../../context.js';
import { dailyViews, participants, participationProgress, seenVideos, videos } from '../../db/schema.js';
import { badRequest } from '../../lib/http-error.js';
import { programmeToday } from '../../lib/programme-day.js';
import { findProgressOfParticipant, refreshAdherence } from './repository.js';

export interface ViewsRecorded {
  /** Videos seen for the first time by this report (a video reported again counts once). */
  newlySeen: number;
}

/**
 * Records the videos a participant watched (tablet call 8). In one transaction: the seen rows
 * (unique per participant and video, so a repeated report changes nothing), the day's view count
 * for the dashboard, and, when the set is the participant's current one, last_seen_date,
 * percentage and days behind.
 */
export async function recordViews(
  ctx: AppContext,
  participantId: number,
  videoSetId: number,
  videoIds: number[],
): Promise<ViewsRecorded> {
  const ids = [...new Set(videoIds)];
  const today = programmeToday(ctx);
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const found = await tx
      .select({ video_id: videos.video_id, week_number: videos.week_number, day_number: videos.day_number })
      .from(videos)
      .where(and(eq(videos.fitness_video_set_id, videoSetId), inArray(videos.video_id, ids)));
    if (found.length !== ids.length) throw badRequest(messages.deviceApi.unknownVideos);

    const inserted = await tx
      .insert(seenVideos)
      .values(
        found.map((v) => ({
          participant_id: participantId,
          video_id: v.video_id,
          fitness_video_set_id: videoSetId,
          week_number: v.week_number,
          day_number: v.day_number,
          created_at: now,
        })),
      )
      .onConflictDoNothing({ target: [seenVideos.participant_id, seenVideos.video_id] })
      .returning({ id: seenVideos.seen_video_id });

    if (inserted.length > 0) {
      // Counted at the participant's site (each site's dashboard shows its own views).
      await tx.execute(sql`
        insert into ${dailyViews} as d (day, site_id, views)
        select ${today}::date, p.site_id, ${inserted.length}::int from ${participants} p
        where p.participant_id = ${participantId}
        on conflict (day, site_id) do update set views = d.views + excluded.views`);
    }

    const current = await findProgressOfParticipant(tx, participantId);
    if (current && current.set.fitness_video_set_id === videoSetId) {
      await tx
        .update(participationProgress)
        .set({ last_seen_date: today })
        .where(eq(participationProgress.participant_id, participantId));
      await refreshAdherence(tx, participantId, today, now);
    }
    return { newlySeen: inserted.length };
  });
}
