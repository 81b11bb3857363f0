import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { api } from '@pathway/contract';
import type { AppContext } from '../../context.js';
import { routeOf } from '../../lib/endpoint-route.js';

export async function retentionRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  app.withTypeProvider<ZodTypeProvider>().route({
    ...routeOf(api.retention.policy),
    handler: async () => ({
      log_retention_days: ctx.config.retention.logDays,
      audit_retention_days: ctx.config.retention.auditDays,
    }),
  });
}
