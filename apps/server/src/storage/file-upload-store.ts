import fs from 'node:fs';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { FileStore } from '@tus/file-store';
import { ERRORS } from '@tus/utils';
import { isDiskFull } from '../lib/db-errors.js';
import { WriteTracker, type UploadStore } from './upload-writes.js';

/**
 * tus's file store, except that a write failing because the disk is full keeps its ENOSPC: the
 * original replaces every write error with a generic one (`FILE_WRITE_ERROR`, a 500), so the
 * upload route could not tell a full disk (503, try again once space is freed) from a fault.
 * The bytes stored before the failure stay, and the client resumes from that offset. Its writes
 * are tracked so a stopping server can wait for them (see UploadStore).
 */
export class FileUploadStore extends FileStore implements UploadStore {
  private readonly writes = new WriteTracker();

  override write(readable: Readable, fileId: string, offset: number): Promise<number> {
    return this.writes.track(this.writeKeepingDiskFull(readable, fileId, offset));
  }

  drain(timeoutMs: number): Promise<boolean> {
    return this.writes.drain(timeoutMs);
  }

  private async writeKeepingDiskFull(readable: Readable, fileId: string, offset: number): Promise<number> {
    // Ids are `uploads/<32 hex>` (the upload routes name and check them), never a path of their own.
    const writeable = fs.createWriteStream(path.join(this.directory, fileId), { flags: 'r+', start: offset });
    let received = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        received += chunk.length;
        callback(null, chunk);
      },
    });
    try {
      await pipeline(readable, counter, writeable);
    } catch (error) {
      if (isDiskFull(error)) throw error;
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- what FileStore throws, a { status_code, body } object @tus/server answers with
      throw ERRORS.FILE_WRITE_ERROR;
    }
    return offset + received;
  }
}
