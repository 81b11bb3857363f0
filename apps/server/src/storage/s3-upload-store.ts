import { rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { Part } from '@aws-sdk/client-s3';
import { S3Store } from '@tus/s3-store';
import { messages } from '@pathway/contract';
import { WriteTracker, type UploadStore } from './upload-writes.js';

/** What @tus/server answers with when a store throws it: a { status_code, body } object. */
interface TusRefusal {
  status_code: number;
  body: string;
}

/**
 * 409 Conflict, the tus answer to an offset that is not the upload's: the client reads the offset
 * again (HEAD) and resumes from there.
 */
const OFFSET_MOVED: TusRefusal = {
  status_code: 409,
  body: JSON.stringify({ message: messages.upload.offsetMoved }),
};

const storedBytes = (parts: Part[]) => parts.reduce((sum, part) => sum + (part.Size ?? 0), 0);

/** S3 telling us the multipart upload or its `.info` is gone: finished or removed by another request. */
function isGone(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { name, Code } = error as { name?: unknown; Code?: unknown };
  return [name, Code].some((code) => code === 'NoSuchUpload' || code === 'NoSuchKey');
}

async function* oneAfterTheOther(first: Readable, second: Readable): AsyncGenerator<Buffer> {
  yield* first as AsyncIterable<Buffer>;
  yield* second as AsyncIterable<Buffer>;
}

/**
 * tus's S3 store, with three changes:
 * - Its writes are tracked, so a stopping server can wait for them (UploadStore.drain).
 * - A write goes ahead only if what the bucket holds (whole parts plus the `.part` object of an
 *   incomplete last part) is exactly the offset the request was checked against. The original
 *   reads the parts and the incomplete part again inside `write` and prepends whatever `.part` it
 *   finds: if another writer stored one after the offset check (a server still finishing a dropped
 *   PATCH), those bytes went into the file twice. Now that answers 409, and so does a completion
 *   whose parts do not add up to the upload's size; a corrupt object is never assembled.
 * - An upload that vanished under a write (finished or removed by another request) answers 409
 *   instead of S3's NoSuchUpload/NoSuchKey as a 500, and a removed upload leaves nothing cached,
 *   so its next HEAD or PATCH answers 404 rather than the offset of a file that is gone.
 * The rest of `write` is the original's (@tus/s3-store 2.0.7).
 */
export class S3UploadStore extends S3Store implements UploadStore {
  private readonly writes = new WriteTracker();

  override write(src: Readable, id: string, offset: number): Promise<number> {
    return this.writes.track(this.writeChecked(src, id, offset));
  }

  drain(timeoutMs: number): Promise<boolean> {
    return this.writes.drain(timeoutMs);
  }

  override async remove(id: string): Promise<void> {
    try {
      await super.remove(id);
    } finally {
      await this.clearCache(id);
    }
  }

  private async writeChecked(src: Readable, id: string, offset: number): Promise<number> {
    try {
      const metadata = await this.getMetadata(id);
      const parts = await this.retrieveParts(id);
      const nextPartNumber = (parts.at(-1)?.PartNumber ?? 0) + 1;
      const incompletePart = await this.downloadIncompletePart(id);
      if (storedBytes(parts) + (incompletePart?.size ?? 0) !== offset) {
        if (incompletePart) await rm(incompletePart.path, { force: true });
        // eslint-disable-next-line @typescript-eslint/only-throw-error -- @tus/server expects a { status_code, body } object thrown, not an Error
        throw OFFSET_MOVED;
      }
      let body = src;
      let partsOffset = offset;
      if (incompletePart) {
        // Once the incomplete part is on local disk it is deleted from the bucket and sent again
        // as the start of the next part.
        await this.deleteIncompletePart(id);
        partsOffset = offset - incompletePart.size;
        body = Readable.from(oneAfterTheOther(incompletePart.createReader({ cleanUpOnEnd: true }), src));
      }
      const bytesUploaded = await this.uploadParts(metadata, body, nextPartNumber, partsOffset);
      const newOffset = offset + bytesUploaded - (incompletePart?.size ?? 0);
      if (metadata.file.size === newOffset) {
        const allParts = await this.retrieveParts(id);
        // eslint-disable-next-line @typescript-eslint/only-throw-error -- @tus/server expects a { status_code, body } object thrown, not an Error
        if (storedBytes(allParts) !== newOffset) throw OFFSET_MOVED;
        await this.finishMultipartUpload(metadata, allParts);
        await this.completeMetadata(metadata.file);
        await this.clearCache(id);
      }
      return newOffset;
    } catch (error) {
      if (!isGone(error)) throw error;
      await this.clearCache(id);
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- @tus/server expects a { status_code, body } object thrown, not an Error
      throw OFFSET_MOVED;
    }
  }
}
