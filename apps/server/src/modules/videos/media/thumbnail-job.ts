import { randomBytes } from 'node:crypto';
import { instanceScope, withScope } from '../../../db/scope.js';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import { messages } from '@pathway/contract';
import type { AppContext } from '../../../context.js';
import { lockedRow } from '../../../db/locked-row.js';
import { videoUploads, videos } from '../../../db/schema.js';
import type { JobDefinition } from '../../../jobs/queue.js';
import { MEDIA_DELETE_JOB, queueMediaDeletion } from './jobs.js';
import { NotPlayableError, extractFrames, probeVideo } from './video-tools.js';

export const THUMBNAIL_JOB = 'video-thumbnail';

export interface ThumbnailJobData {
  videoId: number;
  /** The file the thumbnail is made from; a job for a file since replaced does nothing. */
  fileKey: string;
}

/** Whole seconds, at least 1: what `video_length` shows once the real duration is known. */
export function videoLengthText(durationSeconds: number): string {
  return String(Math.max(1, Math.round(durationSeconds)));
}

/**
 * Makes a video's 100x80 thumbnail and its player poster from a frame of the stored file, stores
 * both, and records them with the real duration. A file that cannot give a frame gets the
 * failure status at once; anything else (storage away, a crash) is retried, and the last try
 * that fails records the status too, so no video stays 'processing....' for ever.
 */
export function makeThumbnail(ctx: AppContext, data: ThumbnailJobData, isLastTry: boolean): Promise<void> {
  return withScope(instanceScope('thumbnail'), () => makeThumbnailOf(ctx, data, isLastTry));
}

async function makeThumbnailOf(ctx: AppContext, data: ThumbnailJobData, isLastTry: boolean): Promise<void> {
  const { videoId, fileKey } = data;
  const [video] = await ctx.db.select().from(videos).where(eq(videos.video_id, videoId));
  if (!video || video.file_location_path !== fileKey) return;

  const workDir = await mkdtemp(path.join(os.tmpdir(), 'pathway-thumb-'));
  const name = `${videoId}-${randomBytes(16).toString('hex')}`;
  const thumbKey = `thumbs/${name}.jpg`;
  const posterKey = `posters/${name}.jpg`;
  let stored = false;
  try {
    const input = await ctx.media.blobs.inputFor(fileKey);
    const [upload] = await ctx.db.select().from(videoUploads).where(eq(videoUploads.storage_key, fileKey));
    const duration = upload?.duration_seconds ?? (await probeVideo(ctx.videoTools, input)).durationSeconds;
    const out = { thumbnail: path.join(workDir, 'thumb.jpg'), poster: path.join(workDir, 'poster.jpg') };
    await extractFrames(ctx.videoTools, input, duration, out);
    await ctx.media.blobs.putFile(thumbKey, out.thumbnail, 'image/jpeg');
    await ctx.media.blobs.putFile(posterKey, out.poster, 'image/jpeg');
    stored = true;

    const applied = await ctx.db.transaction(async (tx) => {
      const current = await lockedRow(tx, videos, eq(videos.video_id, videoId));
      if (!current || current.file_location_path !== fileKey) {
        await queueMediaDeletion(ctx, tx, [thumbKey, posterKey]);
        return false;
      }
      await tx
        .update(videos)
        .set({
          video_thumbnail_url: thumbKey,
          poster_url: posterKey,
          video_length: videoLengthText(duration),
        })
        .where(eq(videos.video_id, videoId));
      // The pictures of an earlier run (a re-extract) are no longer used.
      await queueMediaDeletion(ctx, tx, [current.video_thumbnail_url, current.poster_url]);
      return true;
    });
    ctx.jobs.notify(MEDIA_DELETE_JOB);
    if (applied) ctx.logger.info({ video_id: videoId }, 'thumbnail made');
  } catch (error) {
    if (stored)
      await Promise.all([ctx.media.blobs.delete(thumbKey), ctx.media.blobs.delete(posterKey)]).catch(
        () => {},
      );
    const permanent = error instanceof NotPlayableError;
    if (!permanent && !isLastTry) throw error;
    ctx.logger.warn({ video_id: videoId, err: error }, 'thumbnail could not be made');
    await ctx.db
      .update(videos)
      .set({ video_thumbnail_url: messages.thumbnail.failed })
      .where(and(eq(videos.video_id, videoId), eq(videos.file_location_path, fileKey)));
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

export function thumbnailJob(ctx: AppContext): JobDefinition<ThumbnailJobData> {
  return {
    name: THUMBNAIL_JOB,
    retryLimit: 3,
    retryDelay: 5,
    retryBackoff: true,
    // Frame extraction reads only a little of the file; a job still running after this is lost.
    expireInSeconds: 10 * 60,
    includeMetadata: true,
    async handler(jobs) {
      for (const job of jobs as PgBoss.JobWithMetadata<ThumbnailJobData>[]) {
        await makeThumbnail(ctx, job.data, job.retryCount >= job.retryLimit);
      }
    },
  };
}
