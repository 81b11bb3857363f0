import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Strict headers the console works under. MUI (emotion) injects <style> at run time, so styles
 * need 'unsafe-inline'; scripts do not. Media may come from the S3 endpoint when one is set.
 */
export const securityHeadersPlugin = fp(
  async (app: FastifyInstance, opts: { extraMediaOrigins: string[] }) => {
    const media = ["'self'", 'blob:', ...opts.extraMediaOrigins];
    await app.register(helmet, {
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
    // Answers about people must never sit in a cache.
    app.addHook('onSend', async (request, reply) => {
      if (!reply.hasHeader('cache-control') && !request.url.startsWith('/assets/')) {
        reply.header('cache-control', 'no-store');
      }
    });
  },
);
