import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createParticipantBody,
  errorResponse,
  messages,
  okResponse,
  participantIdParams,
  participantListQuery,
  participantPage,
  participantView,
  pushNotificationBody,
  referral,
  updateParticipantBody,
} from '@pathway/contract';
import type { AppContext } from '../../context.js';
import { compiledOkSerializer } from '../../lib/compiled-serializer.js';
import { requestPushDelivery } from '../../push/delivery.js';
import { staffOf } from '../../plugins/access.js';
import { AuditService, actorOf } from '../audit/service.js';
import { ParticipantService, type Staff } from './service.js';

function staffActor(request: FastifyRequest): Staff {
  return { ...actorOf(request), role: staffOf(request).role };
}

export async function participantRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const service = new ParticipantService(ctx.db, new AuditService(ctx.db), ctx.clock);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const errors = {
    400: errorResponse,
    401: errorResponse,
    403: errorResponse,
    404: errorResponse,
    409: errorResponse,
  };
  const tags = ['participants'];
  const roleNote =
    'Full access receives the `Participant` shape (with contact data); basic access receives `ParticipantBasic`, which has no identifiable field at all.';

  r.get(
    '/api/participant',
    {
      config: { access: 'staff' },
      schema: {
        tags,
        summary: 'A page of participants, filtered by adherence state, searched and sorted',
        description: `${roleNote} Full-access reads are recorded in the audit trail. Sorting by names or date of birth needs full access.`,
        querystring: participantListQuery,
        response: { 200: participantPage, ...errors },
      },
      // A page of 100 participants: compiled once from the same schema instead of checked by zod.
      serializerCompiler: compiledOkSerializer(participantPage),
    },
    async (request) => service.list(request.query, staffActor(request)),
  );

  r.get(
    '/api/participant/:id',
    {
      config: { access: 'staff' },
      schema: {
        tags,
        summary: 'One participant',
        description: roleNote,
        params: participantIdParams,
        response: { 200: participantView, ...errors },
      },
    },
    async (request) => service.get(request.params.id, staffActor(request)),
  );

  r.get(
    '/api/participant/:id/referral',
    {
      config: { access: 'staff', permission: 'participants.identifiable' },
      schema: {
        tags,
        summary: 'The referral of one participant (full access; recorded in the audit trail)',
        description: 'Referral fields are changed with PATCH /api/participant/{id}.',
        params: participantIdParams,
        response: { 200: referral, ...errors },
      },
    },
    async (request) => service.referral(request.params.id, staffActor(request)),
  );

  r.post(
    '/api/participant',
    {
      config: { access: 'staff', permission: 'participants.manage' },
      schema: {
        tags,
        summary: 'Add a participant with their referral and device',
        body: createParticipantBody,
        response: { 201: participantView, ...errors },
      },
    },
    async (request, reply) => {
      const created = await service.create(request.body, staffActor(request));
      request.log.info(
        { participant_id: created.participant_id, by: request.staff!.adminUserId },
        'participant added',
      );
      return reply.status(201).send(created);
    },
  );

  r.patch(
    '/api/participant/:id',
    {
      // The tablet clears purge_cache on this path with its bearer token (device API call 3).
      config: { access: 'staff-or-device' },
      schema: {
        tags,
        summary:
          'Change the fields sent: details, referral, purge_cache, or the device (uuid, or "empty" to detach)',
        description: `${roleNote} Identifiable and referral fields can be changed with full access only. A tablet (bearer token) may only send purge_cache for its own participant, as a form or JSON body.`,
        params: participantIdParams,
        body: updateParticipantBody,
        response: { 200: z.union([participantView, okResponse]), ...errors },
      },
    },
    async (request, reply) => {
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
  );

  r.delete(
    '/api/participant/:id',
    {
      config: { access: 'staff', permission: 'participants.manage' },
      schema: {
        tags,
        summary: 'Delete a participant, their progress and their device pairing',
        params: participantIdParams,
        response: { 200: okResponse, ...errors },
      },
    },
    async (request) => {
      await service.remove(request.params.id, staffActor(request));
      request.log.info(
        { participant_id: request.params.id, by: request.staff!.adminUserId },
        'participant deleted',
      );
      return { message: 'Participant deleted' };
    },
  );

  r.post(
    '/api/pushNotifications',
    {
      config: { access: 'staff' },
      schema: {
        tags,
        summary: 'Message user: queue a push message to the tablet with this uuid',
        body: pushNotificationBody,
        response: { 200: okResponse, ...errors },
      },
    },
    async (request) => {
      await service.message(request.body, staffActor(request));
      // Delivered now rather than at the outbox's next sweep (every minute).
      await requestPushDelivery(ctx);
      request.log.info({ by: request.staff!.adminUserId }, 'message queued');
      return { message: messages.message.queued };
    },
  );
}
