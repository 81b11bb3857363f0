import { and, asc, eq, sql } from 'drizzle-orm';
import {
  THUMBNAIL_PROCESSING,
  messages,
  type CreateVideoInput,
  type UpdateVideoInput,
  type Video,
  type VideoDeletionImpact,
  type VideoThumbs,
} from '@pathway/contract';
import type { AppContext } from '../../../context.js';
import type { Database } from '../../../db/client.js';
import { lockRow, lockedRow } from '../../../db/locked-row.js';
import { participationProgress, videoSets, videoUploads, videos } from '../../../db/schema.js';
import { HttpError, badRequest, conflict, notFound } from '../../../lib/http-error.js';
import { isBlobKey } from '../../../storage/blob-store.js';
import { findProgressOfParticipant, nearestVideoDay } from '../../progress/index.js';
import { MEDIA_DELETE_JOB, queueMediaDeletion } from '../media/jobs.js';
import { uploadKeyFromLocation } from '../media/urls.js';
import { presentThumbsByWeek, presentVideo } from './presenter.js';
import { THUMBNAIL_JOB, type ThumbnailJobData } from '../media/thumbnail-job.js';
import { UploadService } from '../uploads/service.js';
import { assertMayChangeSet, inReachOf, type SetEditor } from './set-access.js';

type VideoRow = typeof videos.$inferSelect;

/** How a request names its origins: where URLs are made for, and which a client's URL may use. */
export interface Origins {
  origin: string;
  accepted: string[];
}

export type ThumbnailRequestResult = { status: 'ready' | 'processing'; video: VideoRow };

export class VideoService {
  private readonly uploads: UploadService;

  constructor(private readonly ctx: AppContext) {
    this.uploads = new UploadService(ctx);
  }

  async listBySet(setId: number, origin: string): Promise<Video[]> {
    const set = await this.findSet(this.ctx.db, setId);
    const rows = await this.ctx.db
      .select()
      .from(videos)
      .where(eq(videos.fitness_video_set_id, setId))
      .orderBy(asc(videos.week_number), asc(videos.day_number));
    return rows.map((row) => presentVideo(row, set.set_name, origin));
  }

  async get(videoId: number, origin: string): Promise<Video> {
    const row = await this.findVideo(this.ctx.db, videoId);
    const set = await this.findSet(this.ctx.db, row.fitness_video_set_id);
    return presentVideo(row, set.set_name, origin);
  }

  /** Thumbnails of a set by week (device API call 6; the console's reload button). */
  /** 404 (as for a missing set) unless the participant's programme is this set. */
  async assertSetOfParticipant(setId: number, participantId: number): Promise<void> {
    const programme = await findProgressOfParticipant(this.ctx.db, participantId);
    if (programme?.progress.fitness_video_set_id !== setId) throw notFound(messages.videoSet.notFound);
  }

  async thumbsBySet(setId: number, origin: string): Promise<VideoThumbs> {
    await this.findSet(this.ctx.db, setId);
    const rows = await this.ctx.db
      .select({
        week_number: videos.week_number,
        day_number: videos.day_number,
        video_thumbnail_url: videos.video_thumbnail_url,
        video_id: videos.video_id,
      })
      .from(videos)
      .where(eq(videos.fitness_video_set_id, setId))
      .orderBy(asc(videos.week_number), asc(videos.day_number));
    return presentThumbsByWeek(rows, origin);
  }

  /**
   * Saves a video on one day of a set. The file must be an upload that finished on this server
   * and passed the playable-video check; its thumbnail is queued in the same transaction.
   */
  async create(body: CreateVideoInput, origins: Origins, editor: SetEditor): Promise<Video> {
    const fileKey = await this.readyUploadKey(body.file_location_path, origins);
    const { row, setName } = await this.ctx.db.transaction(async (tx) => {
      assertMayChangeSet(await this.findSet(tx, body.fitness_video_set_id), editor);
      // Shared lock: the set cannot be deleted under a video being added to it.
      const set = await this.findSet(tx, body.fitness_video_set_id, true);
      if (body.week_number > set.number_of_weeks) throw badRequest(messages.video.weekInvalid);
      if (body.day_number > set.videos_in_week) throw badRequest(messages.video.dayInvalid);
      const upload = await this.lockReadyUpload(tx, fileKey);
      const [row] = await tx
        .insert(videos)
        .values({
          fitness_video_set_id: set.fitness_video_set_id,
          title: body.title,
          description: body.description,
          file_location_path: fileKey,
          file_size: upload.file_size,
          week_number: body.week_number,
          day_number: body.day_number,
        })
        .onConflictDoNothing()
        .returning();
      if (!row) throw conflict(messages.video.positionTaken);
      await this.queueThumbnail(tx, row);
      return { row, setName: set.set_name };
    });
    this.ctx.jobs.notify(THUMBNAIL_JOB);
    return presentVideo(row, setName, origins.origin);
  }

  /**
   * Changes title and description, and replaces the file when a new upload is named: the
   * thumbnail goes back to 'processing....' and is made again; the old file is deleted if no
   * other video uses it.
   */
  async update(videoId: number, body: UpdateVideoInput, origins: Origins, editor: SetEditor): Promise<Video> {
    const current = await this.findVideo(this.ctx.db, videoId);
    assertMayChangeSet(await this.findSet(this.ctx.db, current.fitness_video_set_id), editor);
    let newKey: string | undefined;
    if (body.file_location_path !== undefined) {
      const named = uploadKeyFromLocation(body.file_location_path, origins.accepted);
      if (named !== current.file_location_path)
        newKey = await this.readyUploadKey(body.file_location_path, origins);
    }
    const { row, setName } = await this.ctx.db.transaction(async (tx) => {
      const locked = await lockRow(tx, videos, eq(videos.video_id, videoId), messages.video.notFound);
      const set = await this.findSet(tx, locked.fitness_video_set_id);
      const replacing = newKey !== undefined && newKey !== locked.file_location_path;
      const upload = replacing ? await this.lockReadyUpload(tx, newKey!) : undefined;
      const [row] = await tx
        .update(videos)
        .set({
          ...(body.title !== undefined && { title: body.title }),
          ...(body.description !== undefined && { description: body.description }),
          ...(replacing && {
            file_location_path: newKey,
            file_size: upload!.file_size,
            video_thumbnail_url: THUMBNAIL_PROCESSING,
            poster_url: null,
            video_length: '0',
          }),
          updated_at: this.ctx.clock.now(),
        })
        .where(eq(videos.video_id, videoId))
        .returning();
      if (replacing) {
        await this.releaseFiles(tx, locked);
        await this.queueThumbnail(tx, row!);
      }
      return { row: row!, setName: set.set_name };
    });
    if (newKey) {
      this.ctx.jobs.notify(THUMBNAIL_JOB);
      this.ctx.jobs.notify(MEDIA_DELETE_JOB);
    }
    return presentVideo(row, setName, origins.origin);
  }

  /**
   * What deleting a video does to positions. A position only points at a day with a video, so
   * participants on this video's day move back to the nearest earlier day with a video; with no
   * such day the delete is refused (see README, Programme rules).
   */
  async deletionImpact(videoId: number, db: Database = this.ctx.db): Promise<VideoDeletionImpact> {
    const video = await this.findVideo(db, videoId);
    const [set] = await db
      .select()
      .from(videoSets)
      .where(eq(videoSets.fitness_video_set_id, video.fitness_video_set_id));
    const [{ n } = { n: 0 }] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(participationProgress)
      .where(this.onDayOf(video));
    const movedTo =
      n > 0
        ? ((await nearestVideoDay(db, set!, { week: video.week_number, day: video.day_number }, 'before')) ??
          null)
        : null;
    return { participants_on_day: n, moved_to: movedTo, refused: n > 0 && movedTo === null };
  }

  /** Deletes a video (participants' viewing records of it too) and the files only it used. */
  async remove(videoId: number, editor: SetEditor): Promise<VideoDeletionImpact> {
    const current = await this.findVideo(this.ctx.db, videoId);
    const set = await this.findSet(this.ctx.db, current.fitness_video_set_id);
    assertMayChangeSet(set, editor, true);
    const impact = await inReachOf(set, () =>
      this.ctx.db.transaction(async (tx) => {
        const locked = await lockRow(tx, videos, eq(videos.video_id, videoId), messages.video.notFound);
        const found = await this.deletionImpact(videoId, tx);
        if (found.refused) throw conflict(messages.video.deleteNoEarlierDay);
        if (found.moved_to) {
          await tx
            .update(participationProgress)
            .set({
              current_week: found.moved_to.week,
              current_day: found.moved_to.day,
              updated_at: this.ctx.clock.now(),
            })
            .where(this.onDayOf(locked));
        }
        await tx.delete(videos).where(eq(videos.video_id, videoId));
        await this.releaseFiles(tx, locked);
        return found;
      }),
    );
    this.ctx.jobs.notify(MEDIA_DELETE_JOB);
    return impact;
  }

  private onDayOf(video: VideoRow) {
    return and(
      eq(participationProgress.fitness_video_set_id, video.fitness_video_set_id),
      eq(participationProgress.current_week, video.week_number),
      eq(participationProgress.current_day, video.day_number),
    );
  }

  /**
   * `GET /thumbs`: makes sure a thumbnail is on its way. A ready one whose pictures are stored
   * is left alone; a job already waiting or running is not doubled; otherwise (a failed try, or
   * lost pictures) the video goes back to 'processing....' and a new job is queued.
   */
  async requestThumbnail(
    videoId: number,
    videoUrl: string | undefined,
    origins: Origins,
  ): Promise<ThumbnailRequestResult> {
    const video = await this.findVideo(this.ctx.db, videoId);
    if (
      videoUrl !== undefined &&
      uploadKeyFromLocation(videoUrl, origins.accepted) !== video.file_location_path
    ) {
      throw badRequest(messages.thumbnail.urlMismatch);
    }
    if (
      isBlobKey(video.video_thumbnail_url) &&
      (await this.ctx.media.blobs.stat(video.video_thumbnail_url))
    ) {
      return { status: 'ready', video };
    }
    const data: ThumbnailJobData = { videoId, fileKey: video.file_location_path };
    if (await this.ctx.jobs.isPending(THUMBNAIL_JOB, data)) return { status: 'processing', video };
    const row = await this.ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .update(videos)
        .set({ video_thumbnail_url: THUMBNAIL_PROCESSING })
        .where(and(eq(videos.video_id, videoId), eq(videos.file_location_path, video.file_location_path)))
        .returning();
      if (!row) throw conflict(messages.thumbnail.urlMismatch);
      await this.queueThumbnail(tx, row);
      return row;
    });
    this.ctx.jobs.notify(THUMBNAIL_JOB);
    return { status: 'processing', video: row };
  }

  /**
   * Thumbnail re-extract (participant's Advanced settings, spec §4): the stored file is read again
   * and a new thumbnail and poster made from it. The current pictures stay until the new ones
   * replace them. A file that is no longer in storage is 'Could not download video'.
   */
  async reextractThumbnail(videoId: number, videoUrl: string, origins: Origins): Promise<void> {
    const video = await this.findVideo(this.ctx.db, videoId);
    if (uploadKeyFromLocation(videoUrl, origins.accepted) !== video.file_location_path) {
      throw badRequest(messages.thumbnail.urlMismatch);
    }
    if (!(await this.ctx.media.blobs.stat(video.file_location_path))) {
      throw new HttpError(422, messages.thumbnail.couldNotDownload);
    }
    const data: ThumbnailJobData = { videoId, fileKey: video.file_location_path };
    // Only a job still to start makes another needless: one already running may have finished
    // its pictures a moment ago (the row shows them before the job is marked done), and a
    // re-extract asked for now must make new ones.
    if (await this.ctx.jobs.isWaiting(THUMBNAIL_JOB, data)) return;
    await this.ctx.db.transaction((tx) => this.queueThumbnail(tx, video));
    this.ctx.jobs.notify(THUMBNAIL_JOB);
  }

  private async queueThumbnail(tx: Database, row: VideoRow): Promise<void> {
    await this.ctx.jobs.send<ThumbnailJobData>(
      THUMBNAIL_JOB,
      { videoId: row.video_id, fileKey: row.file_location_path },
      { tx },
    );
  }

  /**
   * After `old` stopped pointing at its files (deleted or replaced): its pictures go, and its
   * video file too when no other video uses it.
   */
  private async releaseFiles(tx: Database, old: VideoRow): Promise<void> {
    const [stillUsed] = await tx
      .select({ one: sql<number>`1` })
      .from(videos)
      .where(eq(videos.file_location_path, old.file_location_path))
      .limit(1);
    const keys: (string | null)[] = [old.video_thumbnail_url, old.poster_url];
    if (!stillUsed) {
      await tx.delete(videoUploads).where(eq(videoUploads.storage_key, old.file_location_path));
      keys.push(old.file_location_path);
    }
    await queueMediaDeletion(this.ctx, tx, keys);
  }

  /** The storage key of a finished, checked upload named by the client; finishes the check if needed. */
  private async readyUploadKey(location: string, origins: Origins): Promise<string> {
    const key = uploadKeyFromLocation(location, origins.accepted);
    if (!key) throw badRequest(messages.upload.unknownFile);
    const row = await this.uploads.find(key);
    if (!row) throw badRequest(messages.upload.unknownFile);
    if (row.status !== 'ready') await this.uploads.finalize(key);
    return key;
  }

  private async lockReadyUpload(tx: Database, key: string) {
    const upload = await lockedRow(tx, videoUploads, eq(videoUploads.storage_key, key));
    if (!upload) throw badRequest(messages.upload.unknownFile);
    if (upload.status !== 'ready') throw new HttpError(409, messages.upload.notFinished);
    return upload;
  }

  private async findSet(db: Database, setId: number, lockShared = false) {
    const query = db.select().from(videoSets).where(eq(videoSets.fitness_video_set_id, setId));
    const [set] = lockShared ? await query.for('share') : await query;
    if (!set) throw notFound(messages.videoSet.notFound);
    return set;
  }

  private async findVideo(db: Database, videoId: number): Promise<VideoRow> {
    const [row] = await db.select().from(videos).where(eq(videos.video_id, videoId));
    if (!row) throw notFound(messages.video.notFound);
    return row;
  }
}
