import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { api } from '@pathway/contract';
import type { AppContext } from '../../context.js';
import { routeOf } from '../../lib/endpoint-route.js';
import { actorOf } from './actor.js';
import { AuditService } from './service.js';

export async function auditRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const audit = new AuditService(ctx.db);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.route({
    ...routeOf(api.audit.list),
    handler: async (request) => audit.list(request.query.page, request.query.perPage, request.query.action),
  });

  r.route({
    ...routeOf(api.audit.export),
    handler: async (request, reply) => {
      const day = ctx.clock.now().toISOString().slice(0, 10);
      request.log.info({ by: request.staff!.adminUserId }, 'audit trail exported');
      const csv = await audit.exportFor(actorOf(request), request.query.action);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="audit-${day}.csv"`)
        .header('cache-control', 'no-store')
        .send(csv as never);
    },
  });
}
