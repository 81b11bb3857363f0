import { and, eq } from 'drizzle-orm';
import {
  averageSeenPerDay,
  daysPassed,
  exerciseDaysInProgramme,
  messages,
  positionIndex,
  shouldSeenByNow,
  totalDaysInProgramme,
  type CreateProgressBody,
  type MoveProgressBody,
  type Position,
  type ProgressSummary,
  type UpdateProgressBody,
} from '@pathway/contract';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { participationProgress, seenVideos } from '../../db/schema.js';
import { HttpError, badRequest, conflict, notFound } from '../../lib/http-error.js';
import { programmeToday } from '../../lib/programme-day.js';
import { PUSH_DELIVER_JOB, enqueuePush, requestPushDelivery } from '../push/index.js';
import {
  findProgressById,
  findProgressOfParticipant,
  findVideoSet,
  hasVideoOn,
  listSeen,
  nearestVideoDay,
  participantExists,
  refreshAdherence,
  type ProgressRow,
  type ProgressWithSet,
} from './repository.js';
import { assertActiveParticipant } from '../participants/index.js';

const m = messages.progress;

export type MoveDirection = 'forward' | 'backward';

/**
 * The staff's changes to a participant's progress, with the rules and messages of spec §4 and §8.
 * Every change runs in one transaction holding the progress row, so two staff acting at once
 * cannot interleave.
 */
export class ProgressService {
  constructor(private readonly ctx: AppContext) {}

  private today(): string {
    return programmeToday(this.ctx);
  }

  async listForParticipant(participantId: number): Promise<ProgressRow[]> {
    if (!(await participantExists(this.ctx.db, participantId))) throw notFound(messages.participant.notFound);
    const found = await findProgressOfParticipant(this.ctx.db, participantId);
    return found ? [found.progress] : [];
  }

  async summary(videoSetId: number, participantId: number): Promise<ProgressSummary> {
    const found = await findProgressOfParticipant(this.ctx.db, participantId);
    if (!found) {
      if (!(await participantExists(this.ctx.db, participantId)))
        throw notFound(messages.participant.notFound);
      throw notFound(m.none);
    }
    if (found.set.fitness_video_set_id !== videoSetId) throw notFound(m.notInSet);
    const { progress, set } = found;
    const days = daysPassed(progress.started_date, this.today());
    const seen = await listSeen(this.ctx.db, participantId, set.fitness_video_set_id);
    return {
      daysPassed: days,
      todalDaysInProgramme: totalDaysInProgramme(set),
      excerciseDaysInProgramme: exerciseDaysInProgramme(set),
      averagePerDay: averageSeenPerDay(days, seen.length),
      shouldSeenByNow: shouldSeenByNow(days, set),
      actuallySeen: seen.length,
      seenVideos: seen.map((v) => ({ ...v, created_at: v.created_at.toISOString() })),
    };
  }

  /** Choosing a set for a participant without one: week 1, day 1, 0 %, stopped at 0. */
  async create(body: CreateProgressBody): Promise<ProgressRow> {
    const today = this.today();
    const now = this.ctx.clock.now();
    return this.ctx.db.transaction(async (tx) => {
      await assertActiveParticipant(tx, body.participant_id);
      if (!(await findVideoSet(tx, body.fitness_video_set_id))) throw notFound(messages.videoSet.notFound);
      await this.assertFirstDayHasVideo(tx, body.fitness_video_set_id);
      const [created] = await tx
        .insert(participationProgress)
        .values({
          participant_id: body.participant_id,
          fitness_video_set_id: body.fitness_video_set_id,
          ...this.freshStart(today, now),
        })
        .onConflictDoNothing({ target: participationProgress.participant_id })
        .returning();
      if (!created) throw conflict(m.alreadyAssigned);
      // Views of this set from an earlier time on it are not part of the new start.
      await tx
        .delete(seenVideos)
        .where(
          and(
            eq(seenVideos.participant_id, body.participant_id),
            eq(seenVideos.fitness_video_set_id, body.fitness_video_set_id),
          ),
        );
      return (await refreshAdherence(tx, body.participant_id, today, now))!;
    });
  }

  /**
   * A different set resets the progress (the console has asked 'Are you sure?'); a new week or
   * day follows the move rules; video_stopped_at is kept as sent. Other fields are the server's.
   */
  async update(progressId: number, body: UpdateProgressBody): Promise<ProgressRow> {
    const today = this.today();
    const now = this.ctx.clock.now();
    return this.ctx.db.transaction(async (tx) => {
      const locked = await findProgressById(tx, progressId, { lock: true });
      if (!locked) throw notFound(m.none);
      const participantId = locked.progress.participant_id;
      await assertActiveParticipant(tx, participantId);

      if (
        body.fitness_video_set_id !== undefined &&
        body.fitness_video_set_id !== locked.set.fitness_video_set_id
      ) {
        if (!(await findVideoSet(tx, body.fitness_video_set_id))) throw notFound(messages.videoSet.notFound);
        await this.assertFirstDayHasVideo(tx, body.fitness_video_set_id);
        await tx
          .update(participationProgress)
          .set({
            fitness_video_set_id: body.fitness_video_set_id,
            ...this.freshStart(today, now),
            updated_at: now,
          })
          .where(eq(participationProgress.fitness_participation_progress_id, progressId));
        await tx
          .delete(seenVideos)
          .where(
            and(
              eq(seenVideos.participant_id, participantId),
              eq(seenVideos.fitness_video_set_id, body.fitness_video_set_id),
            ),
          );
        return (await refreshAdherence(tx, participantId, today, now))!;
      }

      const changes: Partial<typeof participationProgress.$inferInsert> = {};
      if (body.current_week !== undefined || body.current_day !== undefined) {
        const target = {
          week: body.current_week ?? locked.progress.current_week,
          day: body.current_day ?? locked.progress.current_day,
        };
        const samePlace =
          target.week === locked.progress.current_week && target.day === locked.progress.current_day;
        if (!samePlace) {
          const direction: MoveDirection =
            target.week === locked.progress.current_week && target.day < locked.progress.current_day
              ? 'backward'
              : 'forward';
          Object.assign(changes, this.checkMove(locked, direction, target));
          await this.assertDayHasVideo(tx, locked, target);
        }
      }
      if (body.video_stopped_at !== undefined) changes.video_stopped_at = body.video_stopped_at;
      if (Object.keys(changes).length === 0) return locked.progress;
      const [updated] = await tx
        .update(participationProgress)
        .set({ ...changes, updated_at: now })
        .where(eq(participationProgress.fitness_participation_progress_id, progressId))
        .returning();
      return updated!;
    });
  }

  /** Move to week/day (§4): backward within the current week, forward to any later place. */
  async move(
    participantId: number,
    direction: MoveDirection,
    target: MoveProgressBody,
  ): Promise<ProgressRow> {
    const now = this.ctx.clock.now();
    return this.ctx.db.transaction(async (tx) => {
      const locked = await this.lockedProgress(tx, participantId);
      const position = this.checkMove(locked, direction, target);
      await this.assertDayHasVideo(tx, locked, target);
      const [updated] = await tx
        .update(participationProgress)
        .set({ ...position, updated_at: now })
        .where(
          eq(
            participationProgress.fitness_participation_progress_id,
            locked.progress.fitness_participation_progress_id,
          ),
        )
        .returning();
      return updated!;
    });
  }

  /**
   * Progress one day forward (§4): the next day's video becomes available and the participant's
   * app is told so, with the default message, through the push outbox.
   */
  async forwardOneDay(participantId: number, adminUserId: number): Promise<ProgressRow> {
    const now = this.ctx.clock.now();
    const updated = await this.ctx.db.transaction(async (tx) => {
      const participant = await participantExists(tx, participantId);
      if (!participant) throw notFound(messages.participant.notFound);
      await assertActiveParticipant(tx, participantId);
      if (participant.authorized_device_id === null) throw conflict(m.noDevice);
      const locked = await this.lockedProgress(tx, participantId);
      const { progress, set } = locked;
      const index = positionIndex({ week: progress.current_week, day: progress.current_day }, set);
      if (index >= exerciseDaysInProgramme(set)) throw conflict(m.lastDay);
      // Days without a video are skipped: the tablet's "today" must have something to play.
      const next = await nearestVideoDay(
        tx,
        set,
        { week: progress.current_week, day: progress.current_day },
        'after',
      );
      if (!next) throw conflict(m.noLaterVideo);
      const [row] = await tx
        .update(participationProgress)
        .set({ current_week: next.week, current_day: next.day, updated_at: now })
        .where(
          eq(
            participationProgress.fitness_participation_progress_id,
            progress.fitness_participation_progress_id,
          ),
        )
        .returning();
      // No token of its own: delivery uses the participant's current one.
      await enqueuePush(tx, {
        participantId,
        targetToken: null,
        title: messages.reminders.newVideoTitle,
        body: messages.reminders.newVideoBody,
        kind: 'progress-forward',
        createdBy: adminUserId,
      });
      await requestPushDelivery(this.ctx, tx);
      return row!;
    });
    this.ctx.jobs.notify(PUSH_DELIVER_JOB);
    return updated;
  }

  private async lockedProgress(tx: Database, participantId: number): Promise<ProgressWithSet> {
    const locked = await findProgressOfParticipant(tx, participantId, { lock: true });
    if (locked) {
      await assertActiveParticipant(tx, participantId);
      return locked;
    }
    if (!(await participantExists(tx, participantId))) throw notFound(messages.participant.notFound);
    throw conflict(m.none);
  }

  private async assertFirstDayHasVideo(tx: Database, setId: number): Promise<void> {
    if (!(await hasVideoOn(tx, setId, 1, 1))) throw conflict(m.firstDayWithoutVideo);
  }

  private async assertDayHasVideo(tx: Database, { set }: ProgressWithSet, target: Position): Promise<void> {
    if (!(await hasVideoOn(tx, set.fitness_video_set_id, target.week, target.day))) {
      throw badRequest(m.dayWithoutVideo(target.week, target.day));
    }
  }

  /** The input limits and direction rules of §4; answers the new position or refuses with §8's text. */
  private checkMove({ progress, set }: ProgressWithSet, direction: MoveDirection, target: Position) {
    if (target.day < 1 || target.day > set.videos_in_week) throw badRequest(m.dayRange(set.videos_in_week));
    if (target.week > set.number_of_weeks)
      throw badRequest(m.weekRange(progress.current_week, set.number_of_weeks));
    if (target.week < progress.current_week) throw badRequest(m.cannotMoveBack);
    const sameWeek = target.week === progress.current_week;
    if (direction === 'backward' && !(sameWeek && target.day < progress.current_day)) {
      throw new HttpError(400, m.cannotMoveBack);
    }
    if (direction === 'forward' && sameWeek && target.day < progress.current_day) {
      throw new HttpError(400, m.cannotMoveBack);
    }
    return { current_week: target.week, current_day: target.day };
  }

  private freshStart(today: string, now: Date) {
    return {
      current_week: 1,
      current_day: 1,
      started_date: today,
      last_seen_date: today,
      percentage_progress: 0,
      video_stopped_at: '0',
      missed_at_check: 0,
      created_at: now,
    };
  }
}
