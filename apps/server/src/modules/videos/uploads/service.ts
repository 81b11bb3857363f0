import { FileBlobStore } from '../../../storage/file-blob-store.js';
import { and, eq } from 'drizzle-orm';
import { messages } from '@pathway/contract';
import type { AppContext } from '../../../context.js';
import type { Database } from '../../../db/client.js';
import { videoUploads } from '../../../db/schema.js';
import { HttpError, badRequest, conflict } from '../../../lib/http-error.js';
import type { MediaStorage } from '../../../storage/media-storage.js';
import { NotPlayableError, checkPlayable } from '../media/video-tools.js';

export type UploadRow = typeof videoUploads.$inferSelect;

/**
 * Removes everything an upload left in storage: the file and the tus bookkeeping beside it (a
 * `.json` file on disk; `.info`/`.part` objects and an open multipart upload in S3). Idempotent.
 */
export async function removeStoredUpload(media: MediaStorage, key: string): Promise<void> {
  const remove = () => media.uploads.remove(key).catch(() => {});
  // On disk, tus removes the upload's files itself: held back like any removal while a backup
  // takes its snapshot.
  if (media.blobs instanceof FileBlobStore) await media.blobs.whileRemovalsAllowed(remove);
  else await remove();
  for (const suffix of ['', '.json', '.info', '.part']) await media.blobs.delete(`${key}${suffix}`);
}

/** The bookkeeping of resumable uploads and the check that makes one usable as a video. */
export class UploadService {
  constructor(private readonly ctx: AppContext) {}

  async recordCreated(key: string, size: number, createdBy: number | null): Promise<void> {
    const now = this.ctx.clock.now();
    await this.ctx.db.insert(videoUploads).values({
      storage_key: key,
      status: 'receiving',
      file_size: size,
      created_by: createdBy,
      created_at: now,
      last_activity_at: now,
    });
  }

  async touch(key: string): Promise<void> {
    await this.ctx.db
      .update(videoUploads)
      .set({ last_activity_at: this.ctx.clock.now() })
      .where(and(eq(videoUploads.storage_key, key), eq(videoUploads.status, 'receiving')));
  }

  /** An unfinished upload the client cancelled (tus termination). */
  async forgetUnfinished(key: string): Promise<void> {
    await this.ctx.db
      .delete(videoUploads)
      .where(and(eq(videoUploads.storage_key, key), eq(videoUploads.status, 'receiving')));
  }

  async find(key: string, db: Database = this.ctx.db): Promise<UploadRow | undefined> {
    const [row] = await db.select().from(videoUploads).where(eq(videoUploads.storage_key, key));
    return row;
  }

  /**
   * Checks a complete upload once (ffprobe, then decoding its first frame) and marks it ready.
   * What is not a playable video is removed at once and refused with a clear message. Safe to
   * call again: a ready upload is answered as it is. Called when the last byte arrives, and
   * again when a video is saved, in case the process stopped between the two.
   */
  async finalize(key: string): Promise<UploadRow> {
    const row = await this.find(key);
    if (!row) throw badRequest(messages.upload.unknownFile);
    if (row.status === 'ready') return row;
    let upload;
    try {
      upload = await this.ctx.media.uploads.getUpload(key);
    } catch {
      await this.ctx.db.delete(videoUploads).where(eq(videoUploads.storage_key, key));
      throw badRequest(messages.upload.unknownFile);
    }
    if (upload.size === undefined || upload.offset !== upload.size)
      throw conflict(messages.upload.notFinished);
    let probe;
    try {
      probe = await checkPlayable(this.ctx.videoTools, await this.ctx.media.blobs.inputFor(key));
    } catch (error) {
      if (!(error instanceof NotPlayableError)) throw error;
      this.ctx.logger.info({ upload: key, reason: error.message }, 'upload refused: not a playable video');
      await this.ctx.db.delete(videoUploads).where(eq(videoUploads.storage_key, key));
      await removeStoredUpload(this.ctx.media, key);
      throw new HttpError(422, messages.upload.notAVideo);
    }
    const now = this.ctx.clock.now();
    const [ready] = await this.ctx.db
      .update(videoUploads)
      .set({
        status: 'ready',
        file_size: upload.size,
        content_type: probe.contentType,
        duration_seconds: probe.durationSeconds,
        finished_at: now,
        last_activity_at: now,
      })
      .where(eq(videoUploads.storage_key, key))
      .returning();
    if (!ready) throw badRequest(messages.upload.unknownFile);
    this.ctx.logger.info(
      {
        upload: key,
        bytes: upload.size,
        seconds: probe.durationSeconds,
        format: probe.formatName,
        codec: probe.videoCodec,
      },
      'upload checked and ready',
    );
    return ready;
  }
}
