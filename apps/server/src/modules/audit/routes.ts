import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { auditExportQuery, auditListQuery, auditPage, errorResponse } from '@pathway/contract';
import type { AppContext } from '../../context.js';
import { AuditService, actorOf } from './service.js';

export async function auditRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const audit = new AuditService(ctx.db);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse };

  r.get(
    '/api/audit',
    {
      config: { access: 'staff', permission: 'audit.read' },
      schema: {
        tags: ['audit'],
        summary: 'The audit trail (identifiable data and security events), newest first; ?action= one kind',
        querystring: auditListQuery,
        response: { 200: auditPage, ...errors },
      },
    },
    async (request) => audit.list(request.query.page, request.query.perPage, request.query.action),
  );

  r.get(
    '/api/audit/export',
    {
      config: { access: 'staff', permission: 'audit.read' },
      schema: {
        tags: ['audit'],
        summary: 'The whole audit trail as CSV, newest first (the export itself is recorded first)',
        querystring: auditExportQuery,
        produces: ['text/csv'],
        response: errors,
      },
    },
    async (request, reply) => {
      const day = ctx.clock.now().toISOString().slice(0, 10);
      request.log.info({ by: request.staff!.adminUserId }, 'audit trail exported');
      // Recorded before the first row is sent, so the export includes its own record.
      await audit.record(actorOf(request), {
        action: 'audit.export',
        detail: request.query.action ? `kind ${request.query.action}` : 'every kind',
      });
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="audit-${day}.csv"`)
        .header('cache-control', 'no-store')
        .send(audit.exportCsv(request.query.action) as never);
    },
  );
}
