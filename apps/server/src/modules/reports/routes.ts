import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { api } from '@pathway/contract';
import type { AppContext } from '../../context.js';
import { routeOf } from '../../lib/endpoint-route.js';
import { programmeToday } from '../../lib/programme-day.js';
import { withinSite } from '../../lib/site-filter.js';
import { staffOf } from '../../plugins/access.js';
import { actorOf, AuditService } from '../audit/index.js';
import { viewOutcomesReport } from './outcomes.js';
import { viewReport, type ReportContext } from './service.js';
import { exportWorkbook } from './workbook.js';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * Reports: aggregate figures only, so every signed-in admin may read them (no
 * permission); each read is still audited as a view of aggregate data.
 */
export async function reportRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const audit = new AuditService(ctx.db);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const reportContext = (): ReportContext => ({
    db: ctx.db,
    timeZone: ctx.config.adherenceCheck.timeZone,
    today: programmeToday(ctx),
  });

  r.route({
    ...routeOf(api.reports.exportXlsx),
    handler: async (request, reply) => {
      const { from, to, by, suppress_small, site_id } = request.query;
      const actor = actorOf(request);
      const body = await withinSite(staffOf(request), site_id, () =>
        exportWorkbook(reportContext(), audit, actor, {
          period: { from, to, by },
          siteId: site_id,
          suppressSmall: suppress_small,
          madeAt: ctx.clock.now(),
          madeBy: actor.userName,
        }),
      );
      return reply
        .type(XLSX_TYPE)
        .header('content-disposition', `attachment; filename="pathway-reports-${from}-to-${to}.xlsx"`)
        .header('cache-control', 'no-store')
        .send(body as never);
    },
  });

  r.route({
    ...routeOf(api.reports.outcomes),
    handler: async (request, reply) => {
      const { from, to, measure, site_id } = request.query;
      const answer = await withinSite(staffOf(request), site_id, () =>
        viewOutcomesReport(reportContext(), audit, actorOf(request), { from, to }, measure, site_id),
      );
      return reply.header('cache-control', 'no-store').send(answer);
    },
  });

  r.route({
    ...routeOf(api.reports.get),
    handler: async (request, reply) => {
      const { from, to, by, site_id } = request.query;
      const answer = await withinSite(staffOf(request), site_id, () =>
        viewReport(reportContext(), audit, actorOf(request), request.params.name, { from, to, by }, site_id),
      );
      return reply.header('cache-control', 'no-store').send(answer);
    },
  });
}
