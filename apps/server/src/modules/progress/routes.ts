import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { api, messages } from '@pathway/contract';
import type { AppContext } from '../../context.js';
import { routeOf } from '../../lib/endpoint-route.js';
import { staffOf } from '../../plugins/access.js';
import { presentProgress } from './presenter.js';
import { ProgressService, type MoveDirection } from './service.js';

export async function progressRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const service = new ProgressService(ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.route({
    ...routeOf(api.progress.ofParticipant),
    handler: async (request) => (await service.listForParticipant(request.params.id)).map(presentProgress),
  });

  r.route({
    ...routeOf(api.progress.summary),
    handler: async (request) => service.summary(request.params.videoSetId, request.params.participantId),
  });

  r.route({
    ...routeOf(api.progress.create),
    handler: async (request, reply) => {
      const created = await service.create(request.body);
      request.log.info(
        {
          participant_id: created.participant_id,
          fitness_video_set_id: created.fitness_video_set_id,
          by: staffOf(request).adminUserId,
        },
        'video set chosen for participant',
      );
      return reply.status(201).send(presentProgress(created));
    },
  });

  r.route({
    ...routeOf(api.progress.update),
    handler: async (request) => {
      const updated = await service.update(request.params.id, request.body);
      request.log.info(
        {
          fitness_participation_progress_id: updated.fitness_participation_progress_id,
          by: staffOf(request).adminUserId,
        },
        'participation progress changed',
      );
      return presentProgress(updated);
    },
  });

  const moves: [MoveDirection, typeof api.progress.moveForward | typeof api.progress.moveBackward][] = [
    ['forward', api.progress.moveForward],
    ['backward', api.progress.moveBackward],
  ];
  for (const [direction, endpoint] of moves) {
    r.route({
      ...routeOf(endpoint),
      handler: async (request) => {
        const moved = await service.move(request.params.id, direction, request.body);
        request.log.info(
          { participant_id: request.params.id, direction, by: staffOf(request).adminUserId },
          'participant moved',
        );
        return presentProgress(moved);
      },
    });
  }

  r.route({
    ...routeOf(api.progress.forwardOneDay),
    handler: async (request) => {
      await service.forwardOneDay(request.params.id, staffOf(request).adminUserId);
      request.log.info(
        { participant_id: request.params.id, by: staffOf(request).adminUserId },
        'participant progressed one day',
      );
      return { message: messages.progress.participantNotified };
    },
  });
}
