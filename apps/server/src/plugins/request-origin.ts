import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { messages } from '@pathway/contract';
import type { Config } from '../config.js';
import { HttpError } from '../lib/http-error.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A public route that acts on the staff session cookie (sign-in, sign-out): checked like a
     * staff route although anyone may call it.
     */
    sessionRoute?: boolean;
    /** Accepts form bodies from a browser (the sign-in form); every other staff route takes JSON only. */
    browserForm?: boolean;
  }
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** The bodies a page on another site can send without a CORS preflight (HTML forms, sendBeacon). */
const SIMPLE_BODY_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain']);

/** Whether this request acts with the staff session cookie, so another site could forge it. */
function usesStaffSession(request: FastifyRequest): boolean {
  const config = request.routeOptions.config ?? {};
  const access = config.access ?? 'public';
  if (access === 'staff') return true;
  // The tablet's bearer token is no ambient credential: its calls cannot be forged by a page.
  if (access === 'staff-or-device') return !request.headers.authorization;
  return config.sessionRoute === true;
}

/**
 * Cross-site request forgery: SameSite=Strict keeps the cookie off cross-site requests in current
 * browsers, and this is the second, server-side line (ASVS 4.2.2, OWASP's "verifying origin with
 * standard headers"). A state-changing staff request from a browser must come from the console's
 * own origin: the Host it was sent to, PUBLIC_URL, or ALLOWED_ORIGINS. Browsers send Origin on
 * every non-GET request and Sec-Fetch-Site on every request; a client with neither (curl, the
 * CLI's scripts) is no browser and carries no ambient cookie, so it passes. Staff routes also take
 * JSON bodies only, which a page on another site cannot send without a preflight this server never
 * grants; form bodies stay on the tablet's routes and the sign-in form.
 */
export const requestOriginPlugin = fp(async (app: FastifyInstance, opts: { config: Config }) => {
  const configured = new Set<string>(opts.config.allowedOrigins);
  if (opts.config.publicUrl) configured.add(new URL(opts.config.publicUrl).origin);

  function fromOwnOrigin(request: FastifyRequest, origin: string): boolean {
    if (configured.has(origin)) return true;
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false; // 'null' (sandboxed frames, data: URLs) and anything malformed
    }
    // Same host and port as the request was sent to; the scheme may differ behind a TLS proxy.
    // URL drops a scheme's default port from host; so does a browser's Origin.
    const host = request.headers.host?.toLowerCase().replace(/:(80|443)$/, '');
    return host !== undefined && url.host === host;
  }

  app.addHook('onRequest', async (request) => {
    if (!STATE_CHANGING.has(request.method) || !usesStaffSession(request)) return;
    const origin = request.headers.origin;
    const site = request.headers['sec-fetch-site'];
    if (origin !== undefined) {
      if (!fromOwnOrigin(request, origin)) throw new HttpError(403, messages.origin.refused);
    } else if (site === 'cross-site' || site === 'same-site') {
      throw new HttpError(403, messages.origin.refused);
    }
    const type = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
    if (type && SIMPLE_BODY_TYPES.has(type) && !request.routeOptions.config?.browserForm) {
      throw new HttpError(415, messages.origin.formRefused);
    }
  });
});
