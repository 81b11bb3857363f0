import { isDiskFull } from '../../../lib/db-errors.js';
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { finished } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EVENTS, Server, type Upload } from '@tus/server';
import { NodeRequest, sendNodeResponse } from 'srvx/node';
import { z } from 'zod';
import { UPLOAD_ENDPOINT, finishedUpload, messages, type FinishedUpload } from '@pathway/contract';
import type pg from 'pg';
import type { AppContext } from '../../../context.js';
import { errorResponses } from '../../../lib/endpoint-route.js';
import { HttpError, notFound } from '../../../lib/http-error.js';
import { PostgresUploadLocker } from '../../../storage/upload-locker.js';
import { WriteTracker } from '../../../storage/upload-writes.js';
import { mediaUrl, publicOrigin } from '../media/urls.js';
import { UploadService, type UploadRow } from './service.js';

const UPLOAD_ID = /^[0-9a-f]{32}$/;
const KEY_PREFIX = 'uploads/';
/** How long a stopping server waits for upload writes in flight (a last S3 part takes seconds). */
const UPLOAD_DRAIN_MS = 60_000;
/** How long a refused PATCH keeps reading the body its client is still sending (nginx's lingering_time). */
const REFUSED_BODY_READ_MS = 30_000;

interface TusRefusal {
  status_code: number;
  body: string;
}

const refusal = (status: number, message: string): TusRefusal => ({
  status_code: status,
  body: JSON.stringify({ message }),
});

export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${units[unit]}`;
}

/**
 * Reads and drops what is left of a request's body, so that an answer sent before the whole body
 * arrived reaches its client. tus answers a refused PATCH (disk full, offset moved, too large) as
 * soon as it knows, often with most of the body still on its way, and with `Connection: close`:
 * closing a socket its client is still writing to fails the client's next write (EPIPE, reset)
 * before it reads the answer, and the person sees a broken connection instead of the message.
 * Bounded like nginx's lingering close: at most `maxBytes` (no valid PATCH carries more) and
 * `maxMs`; past either, the answer goes out and the connection closes as before.
 */
export function discardUnreadBody(req: IncomingMessage, maxBytes: number, maxMs: number): Promise<void> {
  const declared = Number(req.headers['content-length']);
  if (req.complete || req.destroyed || declared > maxBytes) return Promise.resolve();
  return new Promise((resolve) => {
    let dropped = 0;
    const stop = () => {
      clearTimeout(timer);
      req.off('data', onData);
      stopWatching();
      resolve();
    };
    const onData = (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped > maxBytes) stop();
    };
    const timer = setTimeout(stop, maxMs);
    const stopWatching = finished(req, stop);
    // The web stream tus read the body through is abandoned: nothing may queue what follows.
    req.removeAllListeners('data');
    req.on('data', onData);
    req.resume();
  });
}

/** Who sent a tus request (its origin and admin), for tus's hooks, which see only the web request. */
class UploadCallers {
  private readonly byRequest = new WeakMap<IncomingMessage, { origin: string; adminId: number }>();

  set(request: FastifyRequest, config: AppContext['config']): void {
    this.byRequest.set(request.raw, {
      origin: publicOrigin(request, config),
      adminId: request.staff!.adminUserId,
    });
  }

  of(req: unknown): { origin: string; adminId: number } | undefined {
    const node = (req as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req;
    return node ? this.byRequest.get(node) : undefined;
  }
}

function finishedBody(row: UploadRow, origin: string): FinishedUpload {
  return {
    location: mediaUrl(origin, row.storage_key),
    file_size: row.file_size,
    duration_seconds: row.duration_seconds ?? 0,
  };
}

/** One process (PGlite) needs no more than tus's in-memory locks; PostgreSQL may serve several. */
function uploadLocker(ctx: AppContext): PostgresUploadLocker | undefined {
  const pool = ctx.database.kind === 'postgres' ? ctx.database.pool : undefined;
  return pool
    ? new PostgresUploadLocker({ ...pool.options, max: undefined } as pg.ClientConfig, ctx.logger)
    : undefined;
}

/**
 * A stopping server first finishes storing what its PATCHes received (their clients may be gone,
 * so Fastify's close does not wait for them), then lets go of its upload locks: a resume on
 * another server must not run beside that write on the same upload.
 * The same holds for the rest of such a request: the check that runs once a write has stored an
 * upload's last byte (ffprobe, then the database) must not meet a closed database.
 */
async function drainUploads(
  ctx: AppContext,
  requestsInFlight: WriteTracker,
  locker: PostgresUploadLocker | undefined,
): Promise<void> {
  if (!(await requestsInFlight.drain(UPLOAD_DRAIN_MS)))
    ctx.logger.warn({ waitedMs: UPLOAD_DRAIN_MS }, 'upload requests still running at stop');
  if (!(await ctx.media.uploads.drain(UPLOAD_DRAIN_MS)))
    ctx.logger.warn({ waitedMs: UPLOAD_DRAIN_MS }, 'upload writes still running at stop');
  await locker?.close();
}

/** tus's answer to a failed request, as `{ message }` with the spec's texts. */
function tusErrorAnswer(ctx: AppContext): (error: Error | TusRefusal) => TusRefusal {
  const tooLarge = `${messages.upload.tooLarge} (${formatBytes(ctx.config.maxUploadBytes)}).`;
  return (error) => {
    if (error instanceof Error) {
      if (isDiskFull(error)) {
        ctx.logger.error({ err: error }, 'disk full: upload bytes refused');
        return refusal(503, messages.generic.diskFull);
      }
      ctx.logger.error({ err: error }, 'upload error');
      return refusal(500, messages.upload.failed);
    }
    if (error.body.startsWith('{')) return error;
    if (error.status_code === 413) return refusal(413, tooLarge);
    if (error.status_code === 404 || error.status_code === 410)
      return refusal(error.status_code, messages.upload.unknownFile);
    return refusal(error.status_code, error.body.trim());
  };
}

/**
 * The tus server: bytes straight to the media store, the upload recorded when it is created and
 * touched on each PATCH, checked (ffprobe) when its last byte is stored, and forgotten when an
 * unfinished one is cancelled.
 */
function tusServer(
  ctx: AppContext,
  uploads: UploadService,
  callers: UploadCallers,
  locker: PostgresUploadLocker | undefined,
): Server {
  const errorAnswer = tusErrorAnswer(ctx);
  const tus = new Server({
    path: UPLOAD_ENDPOINT,
    datastore: ctx.media.uploads,
    ...(locker && { locker }),
    maxSize: ctx.config.maxUploadBytes,
    // A finished upload may be a video's file: only unfinished ones can be cancelled.
    disableTerminationForFinishedUploads: true,
    namingFunction: () => `${KEY_PREFIX}${randomBytes(16).toString('hex')}`,
    generateUrl: (req, { proto, host, id }) =>
      `${callers.of(req)?.origin ?? `${proto}://${host}`}${UPLOAD_ENDPOINT}/${id.slice(KEY_PREFIX.length)}`,
    getFileIdFromRequest: (_req, lastPath) =>
      lastPath && UPLOAD_ID.test(lastPath) ? `${KEY_PREFIX}${lastPath}` : undefined,
    async onUploadCreate(req, upload: Upload) {
      if (upload.size === undefined)
        // eslint-disable-next-line @typescript-eslint/only-throw-error -- @tus/server expects a { status_code, body } object thrown, not an Error
        throw refusal(400, 'Upload-Length is required: the size of the file must be known');
      // A file that would reach into DATA_DIR's free-space reserve is refused before a byte is stored.
      if (!ctx.config.s3 && (await ctx.diskReserve.wouldExceed(upload.size)))
        // eslint-disable-next-line @typescript-eslint/only-throw-error -- @tus/server expects a { status_code, body } object thrown, not an Error
        throw refusal(503, messages.generic.diskFull);
      await uploads.recordCreated(upload.id, upload.size, callers.of(req)?.adminId ?? null);
      return {};
    },
    async onIncomingRequest(req, id) {
      if (req.method === 'PATCH') await uploads.touch(id);
    },
    async onUploadFinish(req, upload: Upload) {
      try {
        const row = await uploads.finalize(upload.id);
        return {
          status_code: 200,
          headers: { 'Content-Type': 'application/json; charset=utf-8' },
          body: JSON.stringify(finishedBody(row, callers.of(req)?.origin ?? '')),
        };
      } catch (error) {
        // eslint-disable-next-line @typescript-eslint/only-throw-error -- @tus/server expects a { status_code, body } object thrown, not an Error
        if (error instanceof HttpError) throw refusal(error.statusCode, error.message);
        ctx.logger.error({ err: error, upload: upload.id }, 'upload check failed');
        // eslint-disable-next-line @typescript-eslint/only-throw-error -- @tus/server expects a { status_code, body } object thrown, not an Error
        throw refusal(500, messages.upload.failed);
      }
    },
    onResponseError: (_req, error) => errorAnswer(error),
  });
  tus.on(EVENTS.POST_TERMINATE, (_req, _res, id) => {
    uploads
      .forgetUnfinished(id)
      .catch((error: unknown) => ctx.logger.error({ err: error }, 'could not forget a cancelled upload'));
  });
  return tus;
}

/** Fastify's handler of every tus request: hands the raw request to tus and writes its answer. */
function tusHandler(
  ctx: AppContext,
  tus: Server,
  callers: UploadCallers,
  requestsInFlight: WriteTracker,
): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  return async (request, reply) => {
    callers.set(request, ctx.config);
    reply.hijack();
    const { raw: req } = request;
    const res = reply.raw;
    // tus.handle() without its last step, so that a refusal waits for the body it was sent.
    let response: Response;
    try {
      response = await requestsInFlight.track(tus.handleWeb(new NodeRequest({ req, res })));
    } catch (error) {
      request.log.error({ err: error }, 'upload request failed');
      const full = isDiskFull(error);
      response = Response.json(
        { message: full ? messages.generic.diskFull : messages.upload.failed },
        { status: full ? 503 : 500, headers: { connection: 'close' } },
      );
    }
    if (response.status >= 400) await discardUnreadBody(req, ctx.config.maxUploadBytes, REFUSED_BODY_READ_MS);
    try {
      await sendNodeResponse(res, response);
    } catch (error) {
      request.log.error({ err: error }, 'upload answer failed');
      res.destroy();
    }
  };
}

/** The answer of a finished upload again, for a client that lost it (checking it first if need be). */
function finishedUploadRoute(app: FastifyInstance, ctx: AppContext, uploads: UploadService): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    `${UPLOAD_ENDPOINT}/:uploadId`,
    {
      config: { access: 'staff' },
      exposeHeadRoute: false,
      schema: {
        tags: ['uploads'],
        summary: 'The answer of a finished upload again, for a client that lost it',
        params: z.object({ uploadId: z.string().regex(UPLOAD_ID, { error: messages.upload.unknownFile }) }),
        response: { 200: finishedUpload, ...errorResponses([400, 401, 404, 409, 422]) },
      },
    },
    async (request) => {
      const key = `${KEY_PREFIX}${request.params.uploadId}`;
      if (!(await uploads.find(key))) throw notFound(messages.upload.unknownFile);
      return finishedBody(await uploads.finalize(key), publicOrigin(request, ctx.config));
    },
  );
}

/**
 * Resumable uploads (tus protocol, what Uppy's tus plugin speaks) under `/companion`, for signed-in
 * staff only. Bytes go straight to the media store (files or S3), so an upload survives a dropped
 * connection or a restart of the server and resumes where it stopped. The request that delivers
 * the last byte checks the file with ffprobe and answers `{ location, file_size, duration_seconds }`;
 * a file that is not a playable video is removed and refused.
 */
export async function uploadRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const uploads = new UploadService(ctx);
  const callers = new UploadCallers();
  const locker = uploadLocker(ctx);
  const requestsInFlight = new WriteTracker();
  app.addHook('onClose', () => drainUploads(ctx, requestsInFlight, locker));
  const handleTus = tusHandler(ctx, tusServer(ctx, uploads, callers, locker), callers, requestsInFlight);

  // The tus body is streamed to storage as it arrives; nothing may parse or buffer it first.
  app.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null));

  const tusSchema = (summary: string) => ({ tags: ['uploads'], summary });
  app.route({
    method: 'POST',
    url: UPLOAD_ENDPOINT,
    config: { access: 'staff' },
    schema: tusSchema('Start a resumable upload (tus creation; Upload-Length required)'),
    handler: handleTus,
  });
  app.route({
    method: ['PATCH', 'HEAD', 'DELETE'],
    url: `${UPLOAD_ENDPOINT}/:uploadId`,
    config: { access: 'staff' },
    exposeHeadRoute: false,
    schema: tusSchema(
      'tus: send bytes from an offset (PATCH), read the offset (HEAD), cancel an unfinished upload (DELETE)',
    ),
    handler: handleTus,
  });
  finishedUploadRoute(app, ctx, uploads);
}
