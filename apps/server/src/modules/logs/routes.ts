import { createReadStream } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { api } from '@pathway/contract';
import type { AppContext } from '../../context.js';
import { routeOf } from '../../lib/endpoint-route.js';
import { actorOf, AuditService } from '../audit/index.js';
import { LogService } from './service.js';

export async function logRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const logs = new LogService(ctx.config.logDir, new AuditService(ctx.db));

  r.route({
    ...routeOf(api.logs.list),
    handler: async () => logs.list(),
  });

  r.route({
    ...routeOf(api.logs.read),
    handler: async (request, reply) => {
      const { fileName } = request.params;
      const viewing = request.query.view === 'true';
      const { file, size } = await logs.open(fileName, viewing, actorOf(request));
      return (
        reply
          .type('text/plain; charset=utf-8')
          .header('content-length', size)
          .header('content-disposition', `${viewing ? 'inline' : 'attachment'}; filename="${fileName}"`)
          // A stream is sent as is; the typed reply only knows the JSON error shapes.
          .send(createReadStream(file, { end: Math.max(0, size - 1) }) as never)
      );
    },
  });
}
