import { and, eq, lt, or, sql } from 'drizzle-orm';
import { instanceScope, withScope } from '../../../db/scope.js';
import type { AppContext } from '../../../context.js';
import type { Database } from '../../../db/client.js';
import { lockedRow } from '../../../db/locked-row.js';
import { videoUploads, videos } from '../../../db/schema.js';
import type { JobDefinition } from '../../../jobs/queue.js';
import { isBlobKey } from '../../../storage/blob-store.js';
import { isUploadKey } from './urls.js';
import { removeStoredUpload } from '../uploads/service.js';

export const MEDIA_DELETE_JOB = 'media-delete';
export const MEDIA_CLEANUP_JOB = 'media-cleanup';

/** An upload nobody has sent bytes to, or finished but never saved as a video, for this long is removed. */
export const UPLOAD_ABANDONED_AFTER_MS = 24 * 60 * 60 * 1000;

export interface MediaDeleteData {
  keys: string[];
}

/**
 * Deleting stored files cannot be part of a database transaction, so it is queued inside one:
 * the files go only if the change that released them committed, and a crash cannot lose the
 * deletion.
 */
export async function queueMediaDeletion(
  ctx: AppContext,
  tx: Database,
  keys: (string | null | undefined)[],
): Promise<void> {
  const unique = [...new Set(keys.filter((k): k is string => typeof k === 'string' && isBlobKey(k)))];
  if (unique.length > 0) await ctx.jobs.send<MediaDeleteData>(MEDIA_DELETE_JOB, { keys: unique }, { tx });
}

/** Whether any video still points at a stored file (as its video, thumbnail or poster). */
async function isReferenced(db: Database, key: string): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(videos)
    .where(
      or(eq(videos.file_location_path, key), eq(videos.video_thumbnail_url, key), eq(videos.poster_url, key)),
    )
    .limit(1);
  if (row) return true;
  if (!isUploadKey(key)) return false;
  const [upload] = await db
    .select({ one: sql<number>`1` })
    .from(videoUploads)
    .where(eq(videoUploads.storage_key, key));
  return Boolean(upload);
}

export function mediaDeleteJob(ctx: AppContext): JobDefinition<MediaDeleteData> {
  return {
    name: MEDIA_DELETE_JOB,
    retryLimit: 10,
    retryDelay: 30,
    async handler(jobs) {
      for (const job of jobs) {
        for (const key of job.data.keys) {
          if (!isBlobKey(key)) continue;
          // Checked again here: a file is removed only when nothing points at it any more.
          if (await isReferenced(ctx.db, key)) continue;
          if (isUploadKey(key)) await removeStoredUpload(ctx.media, key);
          else await ctx.media.blobs.delete(key);
        }
      }
    },
  };
}

/** Removes uploads that were abandoned, or finished and never saved as a video; returns how many. */
export function cleanUpUploads(ctx: AppContext): Promise<number> {
  return withScope(instanceScope('upload clean-up'), () => removeStaleUploads(ctx));
}

async function removeStaleUploads(ctx: AppContext): Promise<number> {
  const cutoff = new Date(ctx.clock.now().getTime() - UPLOAD_ABANDONED_AFTER_MS);
  const stale = and(
    or(
      and(eq(videoUploads.status, 'receiving'), lt(videoUploads.last_activity_at, cutoff)),
      and(eq(videoUploads.status, 'ready'), lt(videoUploads.finished_at, cutoff)),
    ),
    sql`not exists (select 1 from ${videos} where ${videos.file_location_path} = ${videoUploads.storage_key})`,
  );
  const candidates = await ctx.db
    .select({ key: videoUploads.storage_key })
    .from(videoUploads)
    .where(stale)
    .limit(500);
  let removed = 0;
  for (const { key } of candidates) {
    await ctx.db.transaction(async (tx) => {
      // Locked, then checked again: a video being saved with this upload at the same moment
      // either committed first (and is seen here) or waits and then finds the upload gone.
      if (!(await lockedRow(tx, videoUploads, eq(videoUploads.storage_key, key)))) return;
      const [still] = await tx
        .select({ key: videoUploads.storage_key })
        .from(videoUploads)
        .where(and(eq(videoUploads.storage_key, key), stale));
      if (!still) return;
      await tx.delete(videoUploads).where(eq(videoUploads.storage_key, key));
      await queueMediaDeletion(ctx, tx, [key]);
      removed += 1;
    });
  }
  if (removed > 0) {
    ctx.logger.info({ uploads: removed }, 'abandoned or unsaved uploads removed');
    ctx.jobs.notify(MEDIA_DELETE_JOB);
  }
  return removed;
}

export function mediaCleanupJob(ctx: AppContext): JobDefinition<object> {
  return {
    name: MEDIA_CLEANUP_JOB,
    retryLimit: 2,
    schedule: { cron: '17 * * * *', timeZone: 'UTC' },
    async handler() {
      await cleanUpUploads(ctx);
    },
  };
}
