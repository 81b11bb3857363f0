import { and, asc, desc, eq, ne, sql } from 'drizzle-orm';
import { daysBehind, daysPassed, missedDays, percentageProgress, shouldSeenByNow } from '@pathway/contract';
import type { Database } from '../../db/client.js';
import {
  participantAdherence,
  participantFollowup,
  participants,
  participationProgress,
  seenVideos,
  videoSets,
  videos,
} from '../../db/schema.js';

export type ProgressRow = typeof participationProgress.$inferSelect;
export type VideoSetRow = typeof videoSets.$inferSelect;
export type VideoRow = typeof videos.$inferSelect;

export interface ProgressWithSet {
  progress: ProgressRow;
  set: VideoSetRow;
}

/** The participant's progress and its set; `lock` holds the progress row for a change. */
export async function findProgressOfParticipant(
  db: Database,
  participantId: number,
  options: { lock?: boolean } = {},
): Promise<ProgressWithSet | undefined> {
  const query = db
    .select({ progress: participationProgress, set: videoSets })
    .from(participationProgress)
    .innerJoin(videoSets, eq(videoSets.fitness_video_set_id, participationProgress.fitness_video_set_id))
    .where(eq(participationProgress.participant_id, participantId));
  const [row] = options.lock ? await query.for('update', { of: participationProgress }) : await query;
  return row;
}

export async function findProgressById(
  db: Database,
  progressId: number,
  options: { lock?: boolean } = {},
): Promise<ProgressWithSet | undefined> {
  const query = db
    .select({ progress: participationProgress, set: videoSets })
    .from(participationProgress)
    .innerJoin(videoSets, eq(videoSets.fitness_video_set_id, participationProgress.fitness_video_set_id))
    .where(eq(participationProgress.fitness_participation_progress_id, progressId));
  const [row] = options.lock ? await query.for('update', { of: participationProgress }) : await query;
  return row;
}

export async function findVideoSet(db: Database, setId: number): Promise<VideoSetRow | undefined> {
  const [row] = await db.select().from(videoSets).where(eq(videoSets.fitness_video_set_id, setId));
  return row;
}

export async function participantExists(
  db: Database,
  participantId: number,
): Promise<{ authorized_device_id: number | null } | undefined> {
  const [row] = await db
    .select({ authorized_device_id: participants.authorized_device_id })
    .from(participants)
    .where(eq(participants.participant_id, participantId));
  return row;
}

export async function listSeen(db: Database, participantId: number, setId: number) {
  return db
    .select({
      video_id: seenVideos.video_id,
      week_number: seenVideos.week_number,
      day_number: seenVideos.day_number,
      created_at: seenVideos.created_at,
    })
    .from(seenVideos)
    .where(and(eq(seenVideos.participant_id, participantId), eq(seenVideos.fitness_video_set_id, setId)))
    .orderBy(asc(seenVideos.created_at), asc(seenVideos.seen_video_id));
}

export async function listVideosOfSet(db: Database, setId: number): Promise<VideoRow[]> {
  return db
    .select()
    .from(videos)
    .where(eq(videos.fitness_video_set_id, setId))
    .orderBy(asc(videos.week_number), asc(videos.day_number));
}

/** Whether the set has a video on this day (a position may only point at such a day). */
export async function hasVideoOn(db: Database, setId: number, week: number, day: number): Promise<boolean> {
  const [row] = await db
    .select({ id: videos.video_id })
    .from(videos)
    .where(
      and(eq(videos.fitness_video_set_id, setId), eq(videos.week_number, week), eq(videos.day_number, day)),
    )
    .limit(1);
  return row !== undefined;
}

/** The nearest day of the set after (or before) `week`/`day` that has a video, if any. */
export async function nearestVideoDay(
  db: Database,
  set: Pick<VideoSetRow, 'fitness_video_set_id' | 'videos_in_week'>,
  from: { week: number; day: number },
  direction: 'after' | 'before',
): Promise<{ week: number; day: number } | undefined> {
  const index = sql`(${videos.week_number} - 1) * ${set.videos_in_week} + ${videos.day_number}`;
  const fromIndex = (from.week - 1) * set.videos_in_week + from.day;
  const [row] = await db
    .select({ week: videos.week_number, day: videos.day_number })
    .from(videos)
    .where(
      and(
        eq(videos.fitness_video_set_id, set.fitness_video_set_id),
        direction === 'after' ? sql`${index} > ${fromIndex}` : sql`${index} < ${fromIndex}`,
      ),
    )
    .orderBy(
      direction === 'after' ? asc(videos.week_number) : desc(videos.week_number),
      direction === 'after' ? asc(videos.day_number) : desc(videos.day_number),
    )
    .limit(1);
  return row;
}

/**
 * Recomputes the participant's percentage (on the progress), days behind (on the participant)
 * and the follow-up worklist's missed days by the programme rules, after anything that changed
 * what they have seen or where they stand. Runs inside the caller's transaction.
 */
export async function refreshAdherence(
  db: Database,
  participantId: number,
  today: string,
  now: Date,
): Promise<ProgressRow | undefined> {
  const found = await findProgressOfParticipant(db, participantId);
  if (!found) return undefined;
  const { progress, set } = found;
  // Kept by triggers in this transaction as views arrive or go (db/functions/progress-seen-count.sql).
  const seen = progress.seen_count;
  const behind = daysBehind(shouldSeenByNow(daysPassed(progress.started_date, today), set), seen);
  const [updated] = await db
    .update(participationProgress)
    .set({ percentage_progress: percentageProgress(seen, set), updated_at: now })
    .where(
      eq(participationProgress.fitness_participation_progress_id, progress.fitness_participation_progress_id),
    )
    .returning();
  // Most views leave the figure as it was: no new row version then.
  await db
    .update(participantAdherence)
    .set({ days_behind: behind })
    .where(
      and(
        eq(participantAdherence.participant_id, participantId),
        ne(participantAdherence.days_behind, behind),
      ),
    );
  // A view of a missed day takes it off the worklist now, not at the next morning's check.
  const missed = missedDays(progress.started_date, today, seen, set);
  await db
    .update(participantFollowup)
    .set({ first_missed_on: missed.first_missed_on, third_missed_on: missed.third_missed_on })
    .where(
      and(
        eq(participantFollowup.participant_id, participantId),
        sql`(${participantFollowup.first_missed_on}, ${participantFollowup.third_missed_on})
          is distinct from (${missed.first_missed_on}::date, ${missed.third_missed_on}::date)`,
      ),
    );
  return updated;
}
