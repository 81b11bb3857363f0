import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createProgressBody,
  errorResponse,
  idParam,
  messages,
  moveProgressBody,
  okResponse,
  participantIdParam,
  participationProgress,
  progressSummary,
  summaryParams,
  updateProgressBody,
} from '@pathway/contract';
import type { AppContext } from '../../context.js';
import { staffOf } from '../../plugins/access.js';
import { presentProgress } from './presenters.js';
import { ProgressService, type MoveDirection } from './service.js';

export async function progressRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const service = new ProgressService(ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const errors = {
    400: errorResponse,
    401: errorResponse,
    403: errorResponse,
    404: errorResponse,
    409: errorResponse,
  };
  const tags = ['participation progress'];

  r.get(
    '/api/participationprogress/participant/:id',
    {
      config: { access: 'staff' },
      schema: {
        tags,
        summary: "A participant's progress: an empty array until a video set is chosen",
        params: participantIdParam,
        response: { 200: z.array(participationProgress), ...errors },
      },
    },
    async (request) => (await service.listForParticipant(request.params.id)).map(presentProgress),
  );

  r.get(
    '/api/participationprogress/summary/:videoSetId/participant/:participantId',
    {
      config: { access: 'staff' },
      schema: {
        tags,
        summary: 'Progress summary: days passed, videos due and seen, and each video seen',
        params: summaryParams,
        response: { 200: progressSummary, ...errors },
      },
    },
    async (request) => service.summary(request.params.videoSetId, request.params.participantId),
  );

  r.post(
    '/api/participationprogress',
    {
      config: { access: 'staff' },
      schema: {
        tags,
        summary: 'Choose a video set for a participant without one: week 1, day 1, 0 %',
        description:
          'The console then shows "User associated with video set". 409 when the participant already has a set.',
        body: createProgressBody,
        response: { 201: participationProgress, ...errors },
      },
    },
    async (request, reply) => {
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
  );

  r.patch(
    '/api/participationprogress/:id',
    {
      config: { access: 'staff' },
      schema: {
        tags,
        summary: 'Change progress: another set resets it to week 1, day 1; week/day follow the move rules',
        params: z.object({ id: idParam }),
        body: updateProgressBody,
        response: { 200: participationProgress, ...errors },
      },
    },
    async (request) => {
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
  );

  for (const direction of ['forward', 'backward'] as MoveDirection[]) {
    r.post(
      `/api/video/progress/${direction}/:id`,
      {
        config: { access: 'staff' },
        schema: {
          tags,
          summary:
            direction === 'forward'
              ? 'Move a participant (by participant id) to a later day or week'
              : 'Move a participant (by participant id) back to an earlier day of the current week',
          body: moveProgressBody,
          params: participantIdParam,
          response: { 200: participationProgress, ...errors },
        },
      },
      async (request) => {
        const moved = await service.move(request.params.id, direction, request.body);
        request.log.info(
          { participant_id: request.params.id, direction, by: staffOf(request).adminUserId },
          'participant moved',
        );
        return presentProgress(moved);
      },
    );
  }

  r.patch(
    '/api/participant/:id/progress',
    {
      config: { access: 'staff' },
      schema: {
        tags,
        summary: 'Progress one day forward and notify the participant with the default message',
        params: participantIdParam,
        response: { 200: okResponse, ...errors },
      },
    },
    async (request) => {
      await service.forwardOneDay(request.params.id, staffOf(request).adminUserId);
      request.log.info(
        { participant_id: request.params.id, by: staffOf(request).adminUserId },
        'participant progressed one day',
      );
      return { message: messages.progress.participantNotified };
    },
  );
}
