import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { dashboardData as dashboardDataSchema, errorResponse } from '@pathway/contract';
import type { AppContext } from '../../context.js';
import { dashboardData } from './service.js';

export async function dashboardRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/dashboard',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['dashboard'],
        summary: 'Participant and viewing statistics (no identifiable data)',
        response: { 200: dashboardDataSchema, 401: errorResponse },
      },
    },
    async () => dashboardData(ctx),
  );
}
