import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  can,
  errorResponse,
  messages,
  participantIdParam,
  pushOutboxEntry,
  type PushOutboxEntry,
} from '@pathway/contract';
import type { AppContext } from '../../context.js';
import { participants, pushOutbox } from '../../db/schema.js';
import { notFound } from '../../lib/http-error.js';
import { staffOf } from '../../plugins/access.js';

const RECENT = 50;

/**
 * What became of the push messages to one participant (sent, retrying, not sent and why).
 * Titles and bodies are free text staff typed and may identify someone: full access only.
 */
export async function pushStatusRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/pushNotifications/participant/:id',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['push messages'],
        summary: `The ${RECENT} most recent push messages to a participant, with their delivery status`,
        params: participantIdParam,
        response: { 200: z.array(pushOutboxEntry), 401: errorResponse, 404: errorResponse },
      },
    },
    async (request) => {
      const full = can(staffOf(request).role, 'participants.identifiable');
      const [participant] = await ctx.db
        .select({ id: participants.participant_id })
        .from(participants)
        .where(eq(participants.participant_id, request.params.id));
      if (!participant) throw notFound(messages.participant.notFound);
      const rows = await ctx.db
        .select()
        .from(pushOutbox)
        .where(eq(pushOutbox.participant_id, request.params.id))
        .orderBy(desc(pushOutbox.push_id))
        .limit(RECENT);
      return rows.map(
        (row): PushOutboxEntry => ({
          push_id: row.push_id,
          kind: row.kind,
          ...(full && { title: row.title, body: row.body }),
          status: row.status,
          attempts: row.attempts,
          last_error: row.last_error,
          created_at: row.created_at.toISOString(),
          sent_at: row.sent_at?.toISOString() ?? null,
        }),
      );
    },
  );
}
