import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { UPLOAD_ENDPOINT, api, limits, messages } from '@pathway/contract';
import type { AppContext } from '../../../context.js';
import { routeOf } from '../../../lib/endpoint-route.js';
import { staffOf } from '../../../plugins/access.js';
import { ourOrigins, publicOrigin } from '../media/urls.js';
import { presentThumbnailRequest } from './presenter.js';
import type { SetEditor } from './set-access.js';
import { VideoSetService } from './video-set-service.js';
import { VideoService, type Origins } from './video-service.js';

/** Video sets, their videos and thumbnails. Every staff member may manage them (spec §6 limits nothing here). */
export async function videoRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const sets = new VideoSetService(ctx);
  const library = new VideoService(ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const origins = (request: FastifyRequest): Origins => ({
    origin: publicOrigin(request, ctx.config),
    accepted: ourOrigins(request, ctx.config),
  });
  const by = (request: FastifyRequest) => request.staff?.adminUserId;
  const editor = (request: FastifyRequest): SetEditor => {
    const staff = staffOf(request);
    return {
      organisationId: staff.organisationId,
      systemAdministrator: staff.systemAdministrator,
      everySite: staff.siteIds.length === 0,
    };
  };

  // ---- Video sets ----

  r.route({
    ...routeOf(api.videoSets.list),
    handler: async () => sets.list(),
  });

  r.route({
    ...routeOf(api.videoSets.create),
    handler: async (request, reply) => {
      const created = await sets.create(request.body, editor(request));
      request.log.info(
        { fitness_video_set_id: created.fitness_video_set_id, by: by(request) },
        'video set added',
      );
      return reply.status(201).send(created);
    },
  });

  r.route({
    ...routeOf(api.videoSets.get),
    handler: async (request) => sets.get(request.params.id),
  });

  r.route({
    ...routeOf(api.videoSets.rename),
    handler: async (request) => {
      const updated = await sets.rename(request.params.id, request.body, editor(request));
      request.log.info(
        { fitness_video_set_id: updated.fitness_video_set_id, by: by(request) },
        'video set renamed',
      );
      return updated;
    },
  });

  r.route({
    ...routeOf(api.videoSets.deletionImpact),
    handler: async (request) => sets.deletionImpact(request.params.id),
  });

  r.route({
    ...routeOf(api.videoSets.remove),
    handler: async (request) => {
      const deleted = await sets.remove(request.params.id, editor(request));
      request.log.info(
        {
          fitness_video_set_id: request.params.id,
          by: by(request),
          videos: deleted.videos,
          participants: deleted.participants,
        },
        'video set deleted',
      );
      return deleted;
    },
  });

  r.route({
    ...routeOf(api.videoSets.videos),
    handler: async (request) => library.listBySet(request.params.id, publicOrigin(request, ctx.config)),
  });

  // ---- Videos ----

  r.route({
    ...routeOf(api.videos.uploadSettings),
    handler: async () => ({
      endpoint: UPLOAD_ENDPOINT,
      max_upload_bytes: ctx.config.maxUploadBytes,
      chunk_size_bytes: limits.uploadChunkBytes,
    }),
  });

  r.route({
    ...routeOf(api.videos.thumbsOfSet),
    handler: async (request) => {
      // A tablet sees the thumbnails of its own participant's programme only; another set is
      // answered as if it did not exist, so a token cannot be used to walk the library.
      if (request.device)
        await library.assertSetOfParticipant(request.params.videoSetId, request.device.participantId);
      return library.thumbsBySet(request.params.videoSetId, publicOrigin(request, ctx.config));
    },
  });

  r.route({
    ...routeOf(api.videos.get),
    handler: async (request) => library.get(request.params.video_id, publicOrigin(request, ctx.config)),
  });

  r.route({
    ...routeOf(api.videos.create),
    handler: async (request, reply) => {
      const created = await library.create(request.body, origins(request), editor(request));
      request.log.info(
        { video_id: created.video_id, fitness_video_set_id: created.fitness_video_set_id, by: by(request) },
        'video added',
      );
      return reply.status(201).send(created);
    },
  });

  r.route({
    ...routeOf(api.videos.update),
    handler: async (request) => {
      const updated = await library.update(
        request.params.video_id,
        request.body,
        origins(request),
        editor(request),
      );
      request.log.info({ video_id: updated.video_id, by: by(request) }, 'video changed');
      return updated;
    },
  });

  r.route({
    ...routeOf(api.videos.deletionImpact),
    handler: async (request) => library.deletionImpact(request.params.video_id),
  });

  r.route({
    ...routeOf(api.videos.remove),
    handler: async (request) => {
      const impact = await library.remove(request.params.video_id, editor(request));
      request.log.info(
        {
          video_id: request.params.video_id,
          by: by(request),
          participants_moved: impact.participants_on_day,
        },
        'video deleted',
      );
      return { message: messages.video.deleted };
    },
  });

  r.route({
    ...routeOf(api.videos.reextractThumbnail),
    handler: async (request, reply) => {
      await library.reextractThumbnail(
        request.body.video_id,
        request.body.file_location_path,
        origins(request),
      );
      request.log.info({ video_id: request.body.video_id, by: by(request) }, 'thumbnail re-extract queued');
      return reply.status(202).send({ message: messages.thumbnail.queued });
    },
  });

  r.route({
    ...routeOf(api.videos.requestThumbnail),
    handler: async (request) => {
      const { videoId, videoUrl } = request.query;
      const result = await library.requestThumbnail(videoId, videoUrl, origins(request));
      return presentThumbnailRequest(result.status, result.video, publicOrigin(request, ctx.config));
    },
  });
}
