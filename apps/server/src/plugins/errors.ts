import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { messages } from '@pathway/contract';
import { EmbeddedDatabaseStopped } from '../db/embedded-stop.js';
import { isDiskFull } from '../lib/db-errors.js';
import { HttpError } from '../lib/http-error.js';

/** PostgreSQL and socket errors that mean "the database is away", not "the request is bad". */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '08000',
  '08001',
  '08003',
  '08006',
]);

function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof EmbeddedDatabaseStopped) return true;
  const e = error as { code?: string; message?: string; cause?: unknown };
  if (e?.code && UNAVAILABLE_CODES.has(e.code)) return true;
  if (
    typeof e?.message === 'string' &&
    /Connection terminated|timeout exceeded when trying to connect/i.test(e.message)
  )
    return true;
  return e?.cause ? isDatabaseUnavailable(e.cause) : false;
}

/**
 * One error shape, `{ message }`, for every 4xx and 5xx. Validation failures carry the contract's
 * message for the first failing field (the same text the console's form shows) and the full list.
 * Nothing internal (stack, SQL) ever reaches a response.
 */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = error.validation.map((v) => ({
        field: String(v.instancePath ?? '')
          .replace(/^\//, '')
          .replace(/\//g, '.'),
        message: v.message ?? messages.generic.badRequest,
      }));
      return reply.status(400).send({ message: errors[0]?.message ?? messages.generic.badRequest, errors });
    }
    if (error instanceof HttpError) {
      return reply
        .status(error.statusCode)
        .headers(error.headers)
        .send({ ...error.extra, message: error.message });
    }
    if (isDiskFull(error)) {
      request.log.error({ err: { code: (error as { code?: string }).code } }, 'disk full: write refused');
      return reply.status(503).header('Retry-After', '60').send({ message: messages.generic.diskFull });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.error({ err: { code: (error as { code?: string }).code } }, 'database unavailable');
      return reply.status(503).header('Retry-After', '5').send({ message: messages.generic.unavailable });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const message =
        status === 413
          ? messages.generic.tooLarge
          : error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
            ? 'The request body is not valid JSON'
            : error.message || messages.generic.badRequest;
      return reply.status(status).send({ message });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ message: messages.generic.internal });
  });
});
