import type { Config } from '../config.js';
import type { BlobStore } from './blob-store.js';
import { FileBlobStore } from './file-blob-store.js';
import { FileUploadStore } from './file-upload-store.js';
import type { UploadStore } from './upload-writes.js';

/**
 * The one place media lives: `blobs` for reading, writing and deleting stored files, and
 * `uploads`, the tus data store that receives resumable uploads into the same place under
 * `uploads/<id>` (so a finished upload is already a blob, never copied).
 */
export interface MediaStorage {
  blobs: BlobStore;
  uploads: UploadStore;
}

/** Part size of multipart uploads to S3 (S3's minimum is 5 MiB). */
const S3_PART_BYTES = 8 * 1024 * 1024;

export async function createMediaStorage(config: Config): Promise<MediaStorage> {
  if (config.s3) {
    // The AWS SDK is the heaviest of our dependencies to load: a server keeping files on disk never does.
    const [{ S3UploadStore }, { S3BlobStore, s3ClientConfig }] = await Promise.all([
      import('./s3-upload-store.js'),
      import('./s3-blob-store.js'),
    ]);
    const blobs = new S3BlobStore(config.s3);
    const uploads = new S3UploadStore({
      partSize: S3_PART_BYTES,
      s3ClientConfig: { ...s3ClientConfig(config.s3), bucket: config.s3.bucket },
    });
    return { blobs, uploads };
  }
  const blobs = new FileBlobStore(config.mediaDir);
  // Ids are `uploads/<hex>`, so files land in media/uploads/ with their tus info beside them.
  const uploads = new FileUploadStore({ directory: config.mediaDir });
  return { blobs, uploads };
}
