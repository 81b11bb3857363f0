import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { FIELD_PERMISSIONS, api, can, messages } from '@pathway/contract';
import type { AppContext } from '../../context.js';
import { routeOf } from '../../lib/endpoint-route.js';
import { staffOf } from '../../plugins/access.js';
import { AuditService, actorOf } from '../audit/index.js';
import { requestPushDelivery } from './delivery.js';
import { queueStaffMessage } from './message.js';
import { presentPushMessage } from './presenter.js';
import { recentPushMessages } from './status.js';

/** Staff's message to a participant's tablet, and what became of the messages to one participant. */
export async function pushRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const audit = new AuditService(ctx.db);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.route({
    ...routeOf(api.participants.message),
    handler: async (request) => {
      await queueStaffMessage(ctx.db, audit, request.body, actorOf(request));
      // Delivered now rather than at the outbox's next sweep (every minute).
      await requestPushDelivery(ctx);
      request.log.info({ by: request.staff!.adminUserId }, 'message queued');
      return { message: messages.message.queued };
    },
  });

  // Sent, retrying, not sent and why.
  r.route({
    ...routeOf(api.pushMessages.ofParticipant),
    handler: async (request) => {
      const identifiable = can(staffOf(request).role, FIELD_PERMISSIONS.identifiable);
      const rows = await recentPushMessages(ctx.db, request.params.id);
      return rows.map((row) => presentPushMessage(row, identifiable));
    },
  });
}
