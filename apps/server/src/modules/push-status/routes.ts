import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { FIELD_PERMISSIONS, api, can } from '@pathway/contract';
import type { AppContext } from '../../context.js';
import { routeOf } from '../../lib/endpoint-route.js';
import { staffOf } from '../../plugins/access.js';
import { presentPushMessage, recentPushMessages } from './service.js';

/** What became of the push messages to one participant (sent, retrying, not sent and why). */
export async function pushStatusRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  app.withTypeProvider<ZodTypeProvider>().route({
    ...routeOf(api.pushMessages.ofParticipant),
    handler: async (request) => {
      const identifiable = can(staffOf(request).role, FIELD_PERMISSIONS.identifiable);
      const rows = await recentPushMessages(ctx.db, request.params.id);
      return rows.map((row) => presentPushMessage(row, identifiable));
    },
  });
}
