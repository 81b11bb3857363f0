import { and, asc, countDistinct, eq, inArray, ne, sql } from 'drizzle-orm';
import {
  messages,
  type CreateVideoSetInput,
  type UpdateVideoSetInput,
  type VideoSet,
  type VideoSetDeleted,
  type VideoSetDeletionImpact,
} from '@pathway/contract';
import type { AppContext } from '../../../context.js';
import type { Database } from '../../../db/client.js';
import { lockRow } from '../../../db/locked-row.js';
import {
  participantAdherence,
  participationProgress,
  videoSets,
  videoUploads,
  videos,
} from '../../../db/schema.js';
import { forbidden, notFound } from '../../../lib/http-error.js';
import { MEDIA_DELETE_JOB, queueMediaDeletion } from '../media/jobs.js';
import { presentVideoSet } from './presenter.js';
import { assertMayChangeSet, inReachOf, type SetEditor } from './set-access.js';

export class VideoSetService {
  constructor(private readonly ctx: AppContext) {}

  async list(): Promise<VideoSet[]> {
    const rows = await this.ctx.db.select().from(videoSets).orderBy(asc(videoSets.fitness_video_set_id));
    return rows.map(presentVideoSet);
  }

  async get(id: number): Promise<VideoSet> {
    const [row] = await this.ctx.db.select().from(videoSets).where(eq(videoSets.fitness_video_set_id, id));
    if (!row) throw notFound(messages.videoSet.notFound);
    return presentVideoSet(row);
  }

  /** A set of the editor's organisation; a shared one only from a system administrator. */
  async create(body: CreateVideoSetInput, editor: SetEditor): Promise<VideoSet> {
    if (body.shared && !editor.systemAdministrator)
      throw forbidden(messages.organisation.systemAdministratorOnly);
    const [row] = await this.ctx.db
      .insert(videoSets)
      .values({
        set_name: body.set_name,
        number_of_weeks: body.number_of_weeks,
        videos_in_week: body.videos_in_week,
        organisation_id: editor.organisationId,
        shared: body.shared,
      })
      .returning();
    return presentVideoSet(row!);
  }

  /** Its name, and whether it is shared (system administrators only). */
  async rename(id: number, body: UpdateVideoSetInput, editor: SetEditor): Promise<VideoSet> {
    if (body.shared !== undefined && !editor.systemAdministrator)
      throw forbidden(messages.organisation.systemAdministratorOnly);
    return this.ctx.db.transaction(async (tx) => {
      await this.changeable(tx, id, editor);
      const [current] = await tx
        .select()
        .from(videoSets)
        .where(eq(videoSets.fitness_video_set_id, id))
        .for('update');
      if (!current) throw notFound(messages.videoSet.notFound);
      const changes = {
        ...(body.set_name !== undefined && { set_name: body.set_name }),
        ...(body.shared !== undefined && { shared: body.shared }),
      };
      if (Object.keys(changes).length === 0) return presentVideoSet(current);
      const [row] = await tx
        .update(videoSets)
        .set(changes)
        .where(eq(videoSets.fitness_video_set_id, id))
        .returning();
      return presentVideoSet(row!);
    });
  }

  async deletionImpact(id: number): Promise<VideoSetDeletionImpact> {
    await this.get(id);
    return (await this.impact(this.ctx.db, id)).summary;
  }

  /**
   * Deletes the set with its videos, the progress of every participant on it and their viewing
   * records of its videos, in one transaction. Stored files go (through a queued job) only when
   * no video of another set points at them; thumbnails always go with their videos.
   */
  async remove(id: number, editor: SetEditor): Promise<VideoSetDeleted> {
    const changing = await this.changeable(this.ctx.db, id, editor, true);
    const summary = await inReachOf(changing, () =>
      this.ctx.db.transaction(async (tx) => {
        await lockRow(tx, videoSets, eq(videoSets.fitness_video_set_id, id), messages.videoSet.notFound);
        const { summary, filesToDelete } = await this.impact(tx, id);
        const pictures = await tx
          .select({ thumb: videos.video_thumbnail_url, poster: videos.poster_url })
          .from(videos)
          .where(eq(videos.fitness_video_set_id, id));
        const onSet = tx
          .select({ id: participationProgress.participant_id })
          .from(participationProgress)
          .where(eq(participationProgress.fitness_video_set_id, id));
        // Without progress nobody is behind: the figure must not linger until the daily check.
        await tx
          .update(participantAdherence)
          .set({ days_behind: 0 })
          .where(inArray(participantAdherence.participant_id, onSet));
        // Videos, progress on the set and seen_videos of its videos follow by ON DELETE CASCADE.
        await tx.delete(videoSets).where(eq(videoSets.fitness_video_set_id, id));
        if (filesToDelete.length > 0)
          await tx.delete(videoUploads).where(inArray(videoUploads.storage_key, filesToDelete));
        await queueMediaDeletion(this.ctx, tx, [
          ...filesToDelete,
          ...pictures.flatMap((p) => [p.thumb, p.poster]),
        ]);
        return summary;
      }),
    );
    this.ctx.jobs.notify(MEDIA_DELETE_JOB);
    return { message: messages.videoSet.deleted, ...summary };
  }

  /**
   * Refuses a set the editor may read but not change (a shared one, for anyone but a system
   * administrator) with its reason, before it is locked: a row locked for change must be one the
   * editor may change, and any other would read as not found.
   */
  private async changeable(db: Database, id: number, editor: SetEditor, deleting = false) {
    const [set] = await db
      .select({ organisation_id: videoSets.organisation_id, shared: videoSets.shared })
      .from(videoSets)
      .where(eq(videoSets.fitness_video_set_id, id));
    if (!set) throw notFound(messages.videoSet.notFound);
    assertMayChangeSet(set, editor, deleting);
    return set;
  }

  private async impact(
    db: Database,
    id: number,
  ): Promise<{ summary: VideoSetDeletionImpact; filesToDelete: string[] }> {
    const [counts] = await db
      .select({ videos: sql<number>`count(*)::int` })
      .from(videos)
      .where(eq(videos.fitness_video_set_id, id));
    const [people] = await db
      .select({ n: countDistinct(participationProgress.participant_id) })
      .from(participationProgress)
      .where(eq(participationProgress.fitness_video_set_id, id));
    const files = await db
      .selectDistinct({ key: videos.file_location_path })
      .from(videos)
      .where(eq(videos.fitness_video_set_id, id));
    const keys = files.map((f) => f.key);
    const shared =
      keys.length === 0
        ? []
        : await db
            .selectDistinct({ key: videos.file_location_path })
            .from(videos)
            .where(and(inArray(videos.file_location_path, keys), ne(videos.fitness_video_set_id, id)));
    const kept = new Set(shared.map((s) => s.key));
    const filesToDelete = keys.filter((k) => !kept.has(k));
    return {
      summary: {
        videos: counts!.videos,
        participants: Number(people!.n),
        files_deleted: filesToDelete.length,
        files_kept: kept.size,
      },
      filesToDelete,
    };
  }
}
