import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { api } from '@pathway/contract';
import type { AppContext } from '../../context.js';
import { routeOf } from '../../lib/endpoint-route.js';
import { programmeToday } from '../../lib/programme-day.js';
import { actorOf, AuditService } from '../audit/index.js';
import { outcomesReportOf } from './outcomes.js';
import { reportOf, type ReportContext } from './service.js';
import { reportWorkbookTables, workbookOf } from './workbook.js';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * Reports (issue 33): aggregate figures only, so every signed-in admin may read them (no
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
      const { from, to, by, suppress_small } = request.query;
      const actor = actorOf(request);
      const made = {
        period: { from, to, by },
        suppressSmall: suppress_small,
        madeAt: ctx.clock.now(),
        madeBy: actor.userName,
      };
      const tables = await reportWorkbookTables(reportContext(), made);
      await audit.record(actor, {
        action: 'report.export',
        detail: `all reports ${from}..${to} by ${by}, xlsx${suppress_small ? ', counts under 5 suppressed' : ''}`,
      });
      const body = await workbookOf(tables, made);
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
      const { from, to, measure } = request.query;
      const answer = await outcomesReportOf(reportContext(), { from, to }, measure);
      await audit.record(actorOf(request), {
        action: 'report.view',
        detail: `outcomes of ${answer.measure} ${from}..${to}`,
      });
      return reply.header('cache-control', 'no-store').send(answer);
    },
  });

  r.route({
    ...routeOf(api.reports.get),
    handler: async (request, reply) => {
      const { name } = request.params;
      const period = request.query;
      const answer = await reportOf(reportContext(), name, period);
      await audit.record(actorOf(request), {
        action: 'report.view',
        detail: `${name} ${period.from}..${period.to} by ${period.by}`,
      });
      return reply.header('cache-control', 'no-store').send(answer);
    },
  });
}
