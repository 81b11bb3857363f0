import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { api, messages, subjectAccessFileName } from '@pathway/contract';
import type { AppContext } from '../../context.js';
import { routeOf } from '../../lib/endpoint-route.js';
import { programmeToday } from '../../lib/programme-day.js';
import { actorOf, AuditService } from '../audit/index.js';
import { ParticipantService, staffActor } from '../participants/index.js';
import { RecordsService } from './records.js';
import { LifeCycleService } from './service.js';
import { SubjectAccessService } from './subject-access.js';

/** Discharge, re-referral, the subject access download and the records due for review. */
export async function lifeCycleRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const lifeCycle = new LifeCycleService(ctx);
  const records = new RecordsService(ctx);
  const subjectAccess = new SubjectAccessService(ctx);
  const participants = new ParticipantService(
    ctx.db,
    new AuditService(ctx.db),
    ctx.clock,
    ctx.config.adherenceCheck.timeZone,
  );
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.route({
    ...routeOf(api.participants.discharge),
    handler: async (request) => {
      await lifeCycle.discharge(request.params.id, request.body, actorOf(request));
      request.log.info(
        { participant_id: request.params.id, outcome: request.body.outcome, by: request.staff!.adminUserId },
        'participant discharged',
      );
      return participants.get(request.params.id, staffActor(request));
    },
  });

  r.route({
    ...routeOf(api.participants.rerefer),
    handler: async (request) => {
      await lifeCycle.rerefer(request.params.id, actorOf(request));
      request.log.info(
        { participant_id: request.params.id, by: request.staff!.adminUserId },
        'participant re-referred',
      );
      return participants.get(request.params.id, staffActor(request));
    },
  });

  r.route({
    ...routeOf(api.participants.record, { stepUp: true }),
    handler: async (request, reply) => {
      const zip = await subjectAccess.download(request.params.id, actorOf(request));
      request.log.info(
        { participant_id: request.params.id, by: request.staff!.adminUserId, bytes: zip.byteLength },
        'subject access download',
      );
      return reply
        .type('application/zip')
        .header(
          'content-disposition',
          `attachment; filename="${subjectAccessFileName(request.params.id, programmeToday(ctx))}"`,
        )
        .header('cache-control', 'no-store')
        .send(Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength) as never);
    },
  });

  r.route({
    ...routeOf(api.records.due),
    handler: async (request) => records.due(actorOf(request)),
  });

  r.route({
    ...routeOf(api.records.destroy, { stepUp: true }),
    handler: async (request) => {
      const destroyed = await records.destroy(request.body.participant_ids, actorOf(request));
      request.log.info(
        { participant_ids: destroyed, by: request.staff!.adminUserId },
        'participant records destroyed',
      );
      return { message: messages.records.destroyed(destroyed.length), destroyed };
    },
  });
}
