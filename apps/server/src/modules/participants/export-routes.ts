import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EXPORT_TOTAL_HEADER, errorResponse, participantExportQuery } from '@pathway/contract';
import type { AppContext } from '../../context.js';
import { staffOf } from '../../plugins/access.js';
import { AuditService, actorOf } from '../audit/service.js';
import { exportParticipants } from './export.js';

/** The whole-list export, apart from the grid's page route: it streams, the page route answers JSON. */
export async function participantExportRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const audit = new AuditService(ctx.db);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/participant/export',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['participants'],
        summary: 'The whole participant list as CSV, filtered, searched and sorted as the grid asks',
        description:
          'Streams every row (read in keyset batches). Full access receives the contact columns and every batch is recorded in the audit trail with its participants, as a page of the list is; basic access receives non-identifiable columns only, and may not sort by names or date of birth. `tracking` is the adherence state in words, or "No programme". The `x-total-count` header says how many rows follow.',
        querystring: participantExportQuery,
        produces: ['text/csv'],
        response: { 400: errorResponse, 401: errorResponse, 403: errorResponse },
      },
    },
    async (request, reply) => {
      const staff = { ...actorOf(request), role: staffOf(request).role };
      const { total, csv } = await exportParticipants(ctx.db, audit, request.query, staff);
      const day = ctx.clock.now().toISOString().slice(0, 10);
      request.log.info({ by: request.staff!.adminUserId, rows: total }, 'participant list exported');
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="participants-${day}.csv"`)
        .header('cache-control', 'no-store')
        .header(EXPORT_TOTAL_HEADER, String(total))
        .send(csv as never);
    },
  );
}
