import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';

/**
 * Strict headers the console works under. MUI (emotion) injects <style> at run time, so styles
 * need 'unsafe-inline'; scripts do not. Media may come from the S3 endpoint when one is set.
 *
 * Helmet's middleware is built once here and run on every request, rather than built per request
 * (parsing and checking the policy each time) as @fastify/helmet does; the headers are the same on
 * every answer.
 */
export const securityHeadersPlugin = fp(
  async (app: FastifyInstance, opts: { extraMediaOrigins: string[] }) => {
    const media = ["'self'", 'blob:', ...opts.extraMediaOrigins];
    const setHeaders = helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:', ...opts.extraMediaOrigins],
          mediaSrc: media,
          connectSrc: ["'self'", ...opts.extraMediaOrigins],
          fontSrc: ["'self'", 'data:'],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
        },
      },
      crossOriginEmbedderPolicy: false,
      // Tablets download videos from /media: same-site is enough, but not "same-origin" for S3.
      crossOriginResourcePolicy: { policy: 'same-site' },
      strictTransportSecurity: { maxAge: 31536000, includeSubDomains: true },
    });
    app.addHook('onRequest', (request, reply, done) => {
      // Helmet 8 throws rather than passing an error on; the argument is kept for its signature.
      setHeaders(request.raw, reply.raw, (error) => done(error as Error | undefined));
    });
    // Answers about people must never sit in a cache.
    app.addHook('onSend', async (request, reply) => {
      if (!reply.hasHeader('cache-control') && !request.url.startsWith('/assets/')) {
        reply.header('cache-control', 'no-store');
      }
    });
  },
);
