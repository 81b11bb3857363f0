import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { api } from '@pathway/contract';
import type { AppContext } from '../../context.js';
import { routeOf } from '../../lib/endpoint-route.js';
import { withinSite } from '../../lib/site-filter.js';
import { staffOf } from '../../plugins/access.js';
import { dashboardData } from './service.js';

export async function dashboardRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  app.withTypeProvider<ZodTypeProvider>().route({
    ...routeOf(api.dashboard.get),
    handler: async (request) => withinSite(staffOf(request), request.query.site_id, () => dashboardData(ctx)),
  });
}
