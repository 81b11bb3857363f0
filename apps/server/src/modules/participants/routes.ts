import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { api, messages } from '@pathway/contract';
import type { AppContext } from '../../context.js';
import { compiledOkSerializer } from '../../lib/compiled-serializer.js';
import { routeOf } from '../../lib/endpoint-route.js';
import { cursorOf } from '../../lib/paging.js';
import { withinSite } from '../../lib/site-filter.js';
import { staffOf } from '../../plugins/access.js';
import { actorOf, AuditService } from '../audit/index.js';
import { participantCursor } from './repository.js';
import { ParticipantService, type Staff } from './service.js';

/** The signed-in admin as the participant rules see them (the import and export routes too). */
export function staffActor(request: FastifyRequest): Staff {
  const staff = staffOf(request);
  return {
    ...actorOf(request),
    role: staff.role,
    organisationId: staff.organisationId,
    visibleSiteIds: staff.visibleSiteIds,
  };
}

export async function participantRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const service = new ParticipantService(
    ctx.db,
    new AuditService(ctx.db),
    ctx.clock,
    ctx.config.adherenceCheck.timeZone,
  );
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.route({
    ...routeOf(api.participants.list),
    // A page of 100 participants: compiled once from the same schema instead of checked by zod.
    serializerCompiler: compiledOkSerializer(api.participants.list.responses[200]),
    handler: async (request) =>
      withinSite(staffOf(request), request.query.site_id, () =>
        service.list(request.query, staffActor(request), cursorOf(participantCursor, request.query)),
      ),
  });

  r.route({
    ...routeOf(api.participants.get),
    handler: async (request) => service.get(request.params.id, staffActor(request)),
  });

  r.route({
    ...routeOf(api.participants.referral),
    handler: async (request) => service.referral(request.params.id, staffActor(request)),
  });

  r.route({
    ...routeOf(api.participants.create),
    handler: async (request, reply) => {
      const created = await service.create(request.body, staffActor(request));
      request.log.info(
        { participant_id: created.participant_id, by: request.staff!.adminUserId },
        'participant added',
      );
      return reply.status(201).send(created);
    },
  });

  r.route({
    // Staff or device: the tablet clears purge_cache on this path with its bearer token (device API call 3).
    ...routeOf(api.participants.update),
    handler: async (request, reply) => {
      if (request.device) {
        await service.updateFromDevice(request.params.id, request.body, request.device);
        return reply.status(200).send({ message: 'OK' });
      }
      const updated = await service.update(request.params.id, request.body, staffActor(request));
      request.log.info(
        { participant_id: updated.participant_id, by: request.staff!.adminUserId },
        'participant changed',
      );
      return updated;
    },
  });

  r.route({
    ...routeOf(api.participants.transfer),
    handler: async (request) => {
      const site = await service.transfer(request.params.id, request.body.site_id, staffActor(request));
      request.log.info(
        { participant_id: request.params.id, site_id: request.body.site_id, by: request.staff!.adminUserId },
        'participant transferred',
      );
      return { message: messages.organisation.transferred(site) };
    },
  });

  r.route({
    ...routeOf(api.participants.remove, { stepUp: true }),
    handler: async (request) => {
      await service.remove(request.params.id, staffActor(request));
      request.log.info(
        { participant_id: request.params.id, by: request.staff!.adminUserId },
        'participant deleted',
      );
      return { message: 'Participant deleted' };
    },
  });
}
