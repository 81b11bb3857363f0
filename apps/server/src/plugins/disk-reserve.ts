import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { messages } from '@pathway/contract';
import type { AppContext } from '../context.js';
import { DiskReserve } from '../lib/disk-space.js';
import { HttpError } from '../lib/http-error.js';

/** Methods that only read: served however full the disk is. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Signing in and out write a session row, but staff must be able to sign in to read while the disk is full. */
const ALWAYS_ALLOWED = new Set(['/login', '/logout']);

/** 503 with the disk-full message, sent before the request writes anything. */
export function diskFullError(): HttpError {
  return new HttpError(503, messages.generic.diskFull);
}

/**
 * Refuses requests that store something once DATA_DIR's free space is below DISK_RESERVE_MB
 * (lib/disk-space.ts says why). Only where DATA_DIR holds the embedded database or the media;
 * with PostgreSQL and S3 it holds logs alone, and PostgreSQL's own disk-full answer (SQLSTATE
 * 53100) is mapped by the error handler.
 */
export const diskReservePlugin = fp(async (app: FastifyInstance, { ctx }: { ctx: AppContext }) => {
  const reserve = ctx.diskReserve;
  if (!reserve.enabled || (ctx.config.databaseUrl && ctx.config.s3)) return;
  app.addHook('onRequest', async (request, reply) => {
    if (READS.has(request.method) || ALWAYS_ALLOWED.has(request.routeOptions.url ?? '')) return;
    if (!(await reserve.wouldExceed())) return;
    request.log.warn(
      { reserve_bytes: reserve.reserveBytes, available_bytes: await reserve.available() },
      'disk full: write refused (DATA_DIR free space below DISK_RESERVE_MB)',
    );
    reply.header('Retry-After', '60');
    throw diskFullError();
  });
});

export { DiskReserve };
