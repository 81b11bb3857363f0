import type { Readable } from 'node:stream';

export interface BlobInfo {
  size: number;
  lastModified: Date;
}

/** An inclusive byte range, as in an HTTP Range header. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where videos and thumbnails live: files under DATA_DIR/media, or an S3-compatible bucket. Keys
 * are relative names (`uploads/<id>`, `thumbs/<name>.jpg`, `posters/<name>.jpg`), never paths a
 * client chose; every store checks them with `assertBlobKey`.
 */
export interface BlobStore {
  readonly kind: 'file' | 's3';
  /** Stores a local file under `key` (replacing nothing: keys are never reused). */
  putFile(key: string, localPath: string, contentType: string): Promise<void>;
  stat(key: string): Promise<BlobInfo | null>;
  read(key: string, range?: ByteRange): Promise<Readable>;
  /** Removes the blob; removing one that is not there is not an error. */
  delete(key: string): Promise<void>;
  /** Something ffmpeg can open: a local path, or a short-lived signed URL. */
  inputFor(key: string): Promise<string>;
}

const KEY_PATTERN = /^(uploads|thumbs|posters)\/[A-Za-z0-9][A-Za-z0-9_-]{0,120}(\.[a-z0-9]{1,5})?$/;

export function isBlobKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

export function assertBlobKey(key: string): void {
  if (!isBlobKey(key)) throw new Error(`Invalid storage key ${JSON.stringify(key)}`);
}

export class BlobNotFoundError extends Error {
  constructor(key: string) {
    super(`No stored file ${key}`);
    this.name = 'BlobNotFoundError';
  }
}
