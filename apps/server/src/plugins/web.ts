import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { messages } from '@pathway/contract';

export const webDistDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/dist');

const API_PREFIXES = ['/api/', '/uuid/', '/companion', '/media/', '/thumbs'];

/**
 * Serves the built console. Paths the API does not know fall back to index.html so the client
 * router can take them; unknown API paths get a JSON 404 instead.
 */
export const webPlugin = fp(async (app: FastifyInstance, opts: { root?: string }) => {
  const root = opts.root ?? webDistDir;
  const hasBuild = existsSync(path.join(root, 'index.html'));
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root,
      // Files are looked up per request, so a rebuilt console is served without a restart.
      wildcard: true,
      index: ['index.html'],
      setHeaders: (reply, filePath) => {
        // Vite names assets by content hash, so they never change under the same name.
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          reply.header('cache-control', 'public, max-age=31536000, immutable');
        }
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const isApi = API_PREFIXES.some((p) => request.url.startsWith(p)) || request.url === '/api';
    // A missing script or style of the build is a 404, not the page: index.html in its place
    // breaks the console. (Console paths may end in a file name, e.g. a log viewer's.)
    const isMissingAsset = request.url.startsWith('/assets/');
    if (request.method !== 'GET' || isApi || isMissingAsset || !hasBuild) {
      return reply.status(404).send({ message: messages.generic.notFound });
    }
    return reply.type('text/html').header('cache-control', 'no-cache').sendFile('index.html');
  });
});
