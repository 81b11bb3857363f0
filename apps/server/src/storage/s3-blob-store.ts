import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import {
  BlobNotFoundError,
  assertBlobKey,
  type BlobInfo,
  type BlobStore,
  type ByteRange,
} from './blob-store.js';

export interface S3Settings {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
}

export function s3ClientConfig(settings: S3Settings): S3ClientConfig {
  // We pin an SDK release that supports Node 20 on purpose; its notice about Node 22 is noise.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  return {
    endpoint: settings.endpoint,
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    // Checksums on every request are not understood by every S3-compatible server.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
}

/** Blobs as objects of one S3-compatible bucket, under the same keys as the file store. */
export class S3BlobStore implements BlobStore {
  readonly kind = 's3' as const;
  readonly client: S3Client;

  constructor(readonly settings: S3Settings) {
    this.client = new S3Client(s3ClientConfig(settings));
  }

  async putFile(key: string, localPath: string, contentType: string): Promise<void> {
    assertBlobKey(key);
    const { size } = await stat(localPath);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.settings.bucket,
        Key: key,
        Body: createReadStream(localPath),
        ContentLength: size,
        ContentType: contentType,
      }),
    );
  }

  async stat(key: string): Promise<BlobInfo | null> {
    assertBlobKey(key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key: key }));
      return { size: head.ContentLength ?? 0, lastModified: head.LastModified ?? new Date(0) };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    assertBlobKey(key);
    try {
      const object = await this.client.send(
        new GetObjectCommand({
          Bucket: this.settings.bucket,
          Key: key,
          ...(range && { Range: `bytes=${range.start}-${range.end}` }),
        }),
      );
      return object.Body as Readable;
    } catch (error) {
      if (isNotFound(error)) throw new BlobNotFoundError(key);
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertBlobKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: key }));
  }

  /** ffmpeg reads the object over HTTP with range requests, so a large video is never copied whole. */
  async inputFor(key: string): Promise<string> {
    assertBlobKey(key);
    return getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.settings.bucket, Key: key }), {
      expiresIn: 3600,
    });
  }
}
