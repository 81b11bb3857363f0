import { randomBytes } from 'node:crypto';
import { createReadStream, open } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  BlobNotFoundError,
  assertBlobKey,
  type BlobInfo,
  type BlobStore,
  type ByteRange,
} from './blob-store.js';

/** Blobs as files under one directory (DATA_DIR/media by default). */
export class FileBlobStore implements BlobStore {
  readonly kind = 'file' as const;

  constructor(readonly root: string) {}

  /** Set while a backup takes its snapshot of the files: removals wait until it is taken. */
  private snapshotTaken: Promise<void> | undefined;
  private removalsRunning = 0;
  private removalsDone: (() => void) | undefined;

  /**
   * Runs a removal of stored files, unless a backup is taking its snapshot: then after it. A file
   * released by a change the backup's database copy does not yet hold must still be in the copy.
   */
  async whileRemovalsAllowed<T>(remove: () => Promise<T>): Promise<T> {
    while (this.snapshotTaken) await this.snapshotTaken;
    this.removalsRunning += 1;
    try {
      return await remove();
    } finally {
      this.removalsRunning -= 1;
      if (this.removalsRunning === 0) this.removalsDone?.();
    }
  }

  /** Runs `snapshot` with no removal running or starting (backups: see backup/backup.ts). */
  async withRemovalsHeld<T>(snapshot: () => Promise<T>): Promise<T> {
    while (this.snapshotTaken) await this.snapshotTaken;
    let release!: () => void;
    this.snapshotTaken = new Promise<void>((resolve) => (release = resolve));
    try {
      if (this.removalsRunning > 0) {
        await new Promise<void>((resolve) => (this.removalsDone = resolve));
        this.removalsDone = undefined;
      }
      return await snapshot();
    } finally {
      this.snapshotTaken = undefined;
      release();
    }
  }

  pathOf(key: string): string {
    assertBlobKey(key);
    return path.join(this.root, key);
  }

  async putFile(key: string, localPath: string, _contentType: string): Promise<void> {
    const target = this.pathOf(key);
    await fs.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    // Copy beside the target, then rename: a reader never sees half a file.
    const temporary = `${target}.tmp-${randomBytes(6).toString('hex')}`;
    try {
      await fs.copyFile(localPath, temporary);
      // A copy keeps its source's mode; a stored file is private whatever the source was.
      await fs.chmod(temporary, 0o600);
      await fs.rename(temporary, target);
    } catch (error) {
      await fs.rm(temporary, { force: true });
      throw error;
    }
  }

  async stat(key: string): Promise<BlobInfo | null> {
    try {
      const stats = await fs.stat(this.pathOf(key));
      if (!stats.isFile()) return null;
      return { size: stats.size, lastModified: stats.mtime };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const file = this.pathOf(key);
    // Opened first so a missing file is an error here, not on the stream later. A plain
    // descriptor, owned and closed by the stream.
    const fd = await new Promise<number>((resolve, reject) =>
      open(file, 'r', (error, descriptor) => {
        if (!error) resolve(descriptor);
        else reject(error.code === 'ENOENT' ? new BlobNotFoundError(key) : error);
      }),
    );
    return createReadStream('', {
      fd,
      autoClose: true,
      ...(range && { start: range.start, end: range.end }),
    });
  }

  async delete(key: string): Promise<void> {
    await this.whileRemovalsAllowed(() => fs.rm(this.pathOf(key), { force: true }));
  }

  async inputFor(key: string): Promise<string> {
    return this.pathOf(key);
  }
}
