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

  pathOf(key: string): string {
    assertBlobKey(key);
    return path.join(this.root, key);
  }

  async putFile(key: string, localPath: string, _contentType: string): Promise<void> {
    const target = this.pathOf(key);
    await fs.mkdir(path.dirname(target), { recursive: true });
    // Copy beside the target, then rename: a reader never sees half a file.
    const temporary = `${target}.tmp-${randomBytes(6).toString('hex')}`;
    try {
      await fs.copyFile(localPath, temporary);
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
    await fs.rm(this.pathOf(key), { force: true });
  }

  async inputFor(key: string): Promise<string> {
    return this.pathOf(key);
  }
}
