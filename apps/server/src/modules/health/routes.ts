import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { isReady } from '../../db/client.js';
import { PATHWAY_VERSION } from '../../version.js';

export async function healthRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const status = z.object({ status: z.string() });

  r.get(
    '/healthz',
    {
      config: { access: 'public' },
      schema: {
        tags: ['operations'],
        summary: 'Liveness, and the release this server runs (the root package.json version)',
        response: { 200: status.extend({ version: z.string() }) },
      },
    },
    async () => ({ status: 'ok', version: PATHWAY_VERSION }),
  );

  r.get(
    '/readyz',
    {
      config: { access: 'public' },
      schema: {
        tags: ['operations'],
        summary: 'Readiness: database reachable and every migration applied',
        response: { 200: status, 503: status },
      },
    },
    async (_request, reply) => {
      const ready = await isReady(ctx.database);
      return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready' });
    },
  );
}
