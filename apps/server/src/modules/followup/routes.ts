import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { api } from '@pathway/contract';
import type { AppContext } from '../../context.js';
import { routeOf } from '../../lib/endpoint-route.js';
import { cursorOf } from '../../lib/paging.js';
import { withinSite } from '../../lib/site-filter.js';
import { staffOf } from '../../plugins/access.js';
import { actorOf, AuditService } from '../audit/index.js';
import { FollowupService, type Staff } from './service.js';
import { worklistCursor } from './worklist.js';

function staffActor(request: FastifyRequest): Staff {
  return { ...actorOf(request), role: staffOf(request).role };
}

/** The follow-up worklist, the contact log and every message's fate. */
export async function followupRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const service = new FollowupService(ctx, new AuditService(ctx.db));
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.route({
    ...routeOf(api.followup.list),
    handler: async (request) =>
      withinSite(staffOf(request), request.query.site_id, () =>
        service.list(request.query, staffActor(request), cursorOf(worklistCursor, request.query)),
      ),
  });

  r.route({
    ...routeOf(api.followup.counts),
    handler: async (request) => withinSite(staffOf(request), request.query.site_id, () => service.counts()),
  });

  r.route({
    ...routeOf(api.followup.contacts),
    handler: async (request) => service.contacts(request.params.id, staffActor(request)),
  });

  r.route({
    ...routeOf(api.followup.recordContact),
    handler: async (request, reply) => {
      const entry = await service.recordContact(request.params.id, request.body, staffActor(request));
      request.log.info(
        { participant_id: request.params.id, by: request.staff!.adminUserId },
        'contact recorded',
      );
      return reply.status(201).send(entry);
    },
  });

  r.route({
    ...routeOf(api.followup.messages),
    handler: async (request) => service.messages(request.params.id, request.query, staffActor(request)),
  });
}
