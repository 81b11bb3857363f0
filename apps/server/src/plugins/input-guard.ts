import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { messages } from '@pathway/contract';
import { HttpError } from '../lib/http-error.js';

/**
 * Text PostgreSQL cannot hold: a NUL character (refused by the server's text type, which failed the
 * whole statement) or a lone UTF-16 surrogate (silently turned into U+FFFD, so what is stored is
 * not what was sent). Either is bad input, wherever it appears.
 */
// eslint-disable-next-line no-control-regex -- NUL is matched on purpose: PostgreSQL text cannot store it
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function holdsUnstorableText(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return UNSTORABLE.test(value);
  if (value === null || typeof value !== 'object' || depth > 32) return false;
  if (Buffer.isBuffer(value)) return false;
  for (const [key, inner] of Object.entries(value)) {
    if (UNSTORABLE.test(key) || holdsUnstorableText(inner, depth + 1)) return true;
  }
  return false;
}

/**
 * Refuses, before validation and for every route, a path, query or body that carries text the
 * database cannot store, so no route has to remember it and none answers 500 for it.
 */
export const inputGuardPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preValidation', async (request) => {
    if (
      holdsUnstorableText(request.params) ||
      holdsUnstorableText(request.query) ||
      holdsUnstorableText(request.body)
    ) {
      throw new HttpError(400, messages.generic.unstorableText);
    }
  });
});
