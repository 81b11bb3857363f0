import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponse, retentionPolicy } from '@pathway/contract';
import type { AppContext } from '../../context.js';

export async function retentionRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/retention',
    {
      config: { access: 'staff', permission: 'audit.read' },
      schema: {
        tags: ['operations'],
        summary:
          'How many days daily log files and audit records are kept (LOG_RETENTION_DAYS, AUDIT_RETENTION_DAYS)',
        response: { 200: retentionPolicy, 401: errorResponse, 403: errorResponse },
      },
    },
    async () => ({
      log_retention_days: ctx.config.retention.logDays,
      audit_retention_days: ctx.config.retention.auditDays,
    }),
  );
}
