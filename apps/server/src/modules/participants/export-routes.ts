import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EXPORT_TOTAL_HEADER, api, can } from '@pathway/contract';
import type { AppContext } from '../../context.js';
import { routeOf } from '../../lib/endpoint-route.js';
import { withinSite } from '../../lib/site-filter.js';
import { assertFreshStepUp } from '../../plugins/access.js';
import { AuditService } from '../audit/index.js';
import { staffActor } from './routes.js';
import { exportParticipants } from './export.js';

/** The whole-list export, apart from the grid's page route: it streams, the page route answers JSON. */
export async function participantExportRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const audit = new AuditService(ctx.db);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.route({
    ...routeOf(api.participants.export),
    handler: async (request, reply) => {
      const staff = staffActor(request);
      // The whole list with contact data is a dangerous action; basic access's CSV
      // holds nothing identifiable.
      if (can(staff.role, 'participants.identifiable')) assertFreshStepUp(ctx, request);
      const { total, csv } = await withinSite(staff, request.query.site_id, () =>
        exportParticipants(ctx.db, audit, request.query, staff),
      );
      const day = ctx.clock.now().toISOString().slice(0, 10);
      request.log.info({ by: request.staff!.adminUserId, rows: total }, 'participant list exported');
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="participants-${day}.csv"`)
        .header('cache-control', 'no-store')
        .header(EXPORT_TOTAL_HEADER, String(total))
        .send(csv as never);
    },
  });
}
