import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { instanceScope, withScope } from '../../../db/scope.js';
import { eq } from 'drizzle-orm';
import { messages } from '@pathway/contract';
import type { AppContext } from '../../../context.js';
import { videoUploads } from '../../../db/schema.js';
import { BlobNotFoundError, isBlobKey, type ByteRange } from '../../../storage/blob-store.js';
import { MEDIA_PREFIX, isUploadKey } from './urls.js';

/**
 * Parses a Range header against a size. Answers the one range to send, 'unsatisfiable', or
 * null to send the whole file (no header, several ranges, or a form we do not serve).
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, from, to] = match;
  if (from === '' && to === '') return null;
  let start: number;
  let end: number;
  if (from === '') {
    const suffix = Number(to);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(from);
    end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
    if (to !== '' && Number(to) < start) return null;
  }
  if (start >= size || size === 0) return 'unsatisfiable';
  return { start, end };
}

/**
 * Stored videos and thumbnails under `/media/<key>`, with HTTP range requests (the tablet app
 * streams and downloads videos; the console's player seeks).
 *
 * Access: the tablet app downloads these URLs as they are (as it did from public cloud storage),
 * without its bearer token, so they are capability URLs: every key holds 128 random bits or
 * more, nothing lists them, and only finished, checked uploads and made thumbnails are served.
 * Exercise videos and their thumbnails are programme material, not participant data.
 */
export async function mediaRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const serve = async (request: FastifyRequest<{ Params: { '*': string } }>, reply: FastifyReply) => {
    const key = request.params['*'];
    const missing = () =>
      reply
        .status(404)
        .type('application/json; charset=utf-8')
        .removeHeader('etag')
        .removeHeader('last-modified')
        .removeHeader('cache-control')
        .send({ message: messages.generic.notFound });
    if (!isBlobKey(key) || key.endsWith('.json') || key.endsWith('.info') || key.endsWith('.part'))
      return missing();

    let contentType = 'image/jpeg';
    if (isUploadKey(key)) {
      // A capability URL, served to whoever holds it (a tablet, any organisation's console).
      const [upload] = await withScope(instanceScope('media'), () =>
        ctx.db.select().from(videoUploads).where(eq(videoUploads.storage_key, key)),
      );
      if (!upload || upload.status !== 'ready') return missing();
      contentType = upload.content_type ?? 'video/mp4';
    } else if (!key.endsWith('.jpg')) {
      return missing();
    }
    const info = await ctx.media.blobs.stat(key);
    if (!info) return missing();

    // Keys are never reused, so a stored file never changes: clients may keep it for good.
    const etag = `"${info.size.toString(16)}-${info.lastModified.getTime().toString(16)}"`;
    reply
      .header('accept-ranges', 'bytes')
      .header('etag', etag)
      .header('last-modified', info.lastModified.toUTCString())
      .header('cache-control', 'private, max-age=31536000, immutable');
    if (request.headers['if-none-match'] === etag) return reply.status(304).send();

    const ifRange = request.headers['if-range'];
    const rangeAllowed = !ifRange || ifRange === etag || ifRange === info.lastModified.toUTCString();
    const range = rangeAllowed ? parseRange(request.headers.range, info.size) : null;
    if (range === 'unsatisfiable') {
      return reply
        .status(416)
        .header('content-range', `bytes */${info.size}`)
        .type('application/json; charset=utf-8')
        .send({ message: 'The requested range is outside the file' });
    }
    reply.type(contentType);
    const length = range ? range.end - range.start + 1 : info.size;
    reply.header('content-length', length);
    if (range) reply.status(206).header('content-range', `bytes ${range.start}-${range.end}/${info.size}`);
    if (request.method === 'HEAD') return reply.send();
    try {
      const body = await ctx.media.blobs.read(key, range ?? undefined);
      return reply.send(body);
    } catch (error) {
      if (error instanceof BlobNotFoundError) {
        reply.removeHeader('content-length').removeHeader('content-range').status(200);
        return missing();
      }
      throw error;
    }
  };

  app.route({
    method: ['GET', 'HEAD'],
    url: `${MEDIA_PREFIX}*`,
    config: { access: 'public' },
    exposeHeadRoute: false,
    schema: {
      tags: ['media'],
      summary: 'A stored video or thumbnail; supports Range (206), If-Range, If-None-Match and HEAD',
    },
    handler: serve,
  });
}
