import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  UPLOAD_ENDPOINT,
  createVideoBody,
  createVideoSetBody,
  errorResponse,
  limits,
  messages,
  okResponse,
  reextractThumbnailBody,
  thumbsQuery,
  thumbsQueued,
  updateVideoBody,
  updateVideoSetBody,
  uploadSettings,
  video,
  videoIdParams,
  videoSet,
  videoSetDeleted,
  videoDeletionImpact,
  videoSetDeletionImpact,
  videoSetIdParam,
  videoSetIdParams,
  videoThumbs,
} from '@pathway/contract';
import type { AppContext } from '../../context.js';
import { ourOrigins, presentStoredUrl, publicOrigin } from './media-urls.js';
import { VideoSetService } from './video-set-service.js';
import { VideoService, type Origins } from './video-service.js';

/** Video sets, their videos and thumbnails. Every staff member may manage them (spec §6 limits nothing here). */
export async function videoRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const sets = new VideoSetService(ctx);
  const library = new VideoService(ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const errors = {
    400: errorResponse,
    401: errorResponse,
    403: errorResponse,
    404: errorResponse,
    409: errorResponse,
    422: errorResponse,
  };
  const origins = (request: FastifyRequest): Origins => ({
    origin: publicOrigin(request, ctx.config),
    accepted: ourOrigins(request, ctx.config),
  });
  const by = (request: FastifyRequest) => request.staff?.adminUserId;

  // ---- Video sets ----

  r.get(
    '/api/videoset',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['video sets'],
        summary: 'List video sets',
        response: { 200: z.array(videoSet), ...errors },
      },
    },
    async () => sets.list(),
  );

  r.post(
    '/api/videoset',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['video sets'],
        summary: 'Add a video set (weeks and videos per week are fixed once made)',
        body: createVideoSetBody,
        response: { 201: videoSet, ...errors },
      },
    },
    async (request, reply) => {
      const created = await sets.create(request.body);
      request.log.info(
        { fitness_video_set_id: created.fitness_video_set_id, by: by(request) },
        'video set added',
      );
      return reply.status(201).send(created);
    },
  );

  r.get(
    '/api/videoset/:id',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['video sets'],
        summary: 'One video set',
        params: videoSetIdParams,
        response: { 200: videoSet, ...errors },
      },
    },
    async (request) => sets.get(request.params.id),
  );

  r.patch(
    '/api/videoset/:id',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['video sets'],
        summary: 'Rename a video set (only the name can change)',
        params: videoSetIdParams,
        body: updateVideoSetBody,
        response: { 200: videoSet, ...errors },
      },
    },
    async (request) => {
      const updated = await sets.rename(request.params.id, request.body);
      request.log.info(
        { fitness_video_set_id: updated.fitness_video_set_id, by: by(request) },
        'video set renamed',
      );
      return updated;
    },
  );

  r.get(
    '/api/videoset/:id/deletion-impact',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['video sets'],
        summary: 'What deleting the set would remove (for the warning shown before it)',
        params: videoSetIdParams,
        response: { 200: videoSetDeletionImpact, ...errors },
      },
    },
    async (request) => sets.deletionImpact(request.params.id),
  );

  r.delete(
    '/api/videoset/:id',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['video sets'],
        summary:
          "Delete a set now: its videos, participants' progress on it and their viewing records of it; files no other set uses",
        params: videoSetIdParams,
        response: { 200: videoSetDeleted, ...errors },
      },
    },
    async (request) => {
      const deleted = await sets.remove(request.params.id);
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
  );

  r.get(
    '/api/videoset/:id/videos',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['videos'],
        summary: "A set's videos, by week and day",
        params: videoSetIdParams,
        response: { 200: z.array(video), ...errors },
      },
    },
    async (request) => library.listBySet(request.params.id, publicOrigin(request, ctx.config)),
  );

  // ---- Videos ----

  r.get(
    '/api/video/upload-settings',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['videos'],
        summary: 'Where and how the console uploads video files',
        response: { 200: uploadSettings, ...errors },
      },
    },
    async () => ({
      endpoint: UPLOAD_ENDPOINT,
      max_upload_bytes: ctx.config.maxUploadBytes,
      chunk_size_bytes: limits.uploadChunkBytes,
    }),
  );

  r.get(
    '/api/video/thumbs/:videoSetId',
    {
      config: { access: 'staff-or-device' },
      schema: {
        tags: ['videos'],
        summary:
          "A set's thumbnails by week: URL once made, else its status text (device API call 6, its own programme's set only; the reload button)",
        params: videoSetIdParam,
        response: { 200: videoThumbs, ...errors },
      },
    },
    async (request) => {
      // A tablet sees the thumbnails of its own participant's programme only; another set is
      // answered as if it did not exist, so a token cannot be used to walk the library.
      if (request.device)
        await library.assertSetOfParticipant(request.params.videoSetId, request.device.participantId);
      return library.thumbsBySet(request.params.videoSetId, publicOrigin(request, ctx.config));
    },
  );

  r.get(
    '/api/video/:video_id',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['videos'],
        summary: 'One video',
        params: videoIdParams,
        response: { 200: video, ...errors },
      },
    },
    async (request) => library.get(request.params.video_id, publicOrigin(request, ctx.config)),
  );

  r.post(
    '/api/video',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['videos'],
        summary: 'Save an uploaded video on one day of a set; its thumbnail is made in the background',
        body: createVideoBody,
        response: { 201: video, ...errors },
      },
    },
    async (request, reply) => {
      const created = await library.create(request.body, origins(request));
      request.log.info(
        { video_id: created.video_id, fitness_video_set_id: created.fitness_video_set_id, by: by(request) },
        'video added',
      );
      return reply.status(201).send(created);
    },
  );

  r.patch(
    '/api/video/:video_id',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['videos'],
        summary: 'Change title and description, or replace the file with a new upload',
        params: videoIdParams,
        body: updateVideoBody,
        response: { 200: video, ...errors },
      },
    },
    async (request) => {
      const updated = await library.update(request.params.video_id, request.body, origins(request));
      request.log.info({ video_id: updated.video_id, by: by(request) }, 'video changed');
      return updated;
    },
  );

  r.get(
    '/api/video/:video_id/deletion-impact',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['videos'],
        summary:
          'What deleting this video does to participants whose current day it is (for the delete warning)',
        params: videoIdParams,
        response: { 200: videoDeletionImpact, ...errors },
      },
    },
    async (request) => library.deletionImpact(request.params.video_id),
  );

  r.delete(
    '/api/video/:video_id',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['videos'],
        summary: "Delete a video (participants' viewing records of it too) and the files no other video uses",
        description:
          "Participants whose current day is this video's move back to the nearest earlier day of the set with a " +
          'video; when there is none the delete is refused with 409 (a position never points at a day without a video).',
        params: videoIdParams,
        response: { 200: okResponse, ...errors },
      },
    },
    async (request) => {
      const impact = await library.remove(request.params.video_id);
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
  );

  r.post(
    '/api/video/thumbs/reextract',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['videos'],
        summary: "Thumbnail re-extract: read the video's file again and make new pictures from it (queued)",
        body: reextractThumbnailBody,
        response: { 202: okResponse, ...errors },
      },
    },
    async (request, reply) => {
      await library.reextractThumbnail(
        request.body.video_id,
        request.body.file_location_path,
        origins(request),
      );
      request.log.info({ video_id: request.body.video_id, by: by(request) }, 'thumbnail re-extract queued');
      return reply.status(202).send({ message: messages.thumbnail.queued });
    },
  );

  r.get(
    '/thumbs',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['videos'],
        summary: "Ask for a video's thumbnail to be made (queued; nothing is fetched from videoUrl)",
        querystring: thumbsQuery,
        response: { 200: thumbsQueued, ...errors },
      },
    },
    async (request) => {
      const { videoId, videoUrl } = request.query;
      const result = await library.requestThumbnail(videoId, videoUrl, origins(request));
      return {
        message: result.status === 'ready' ? 'The thumbnail is ready' : messages.thumbnail.queued,
        video_id: videoId,
        video_thumbnail_url: presentStoredUrl(
          publicOrigin(request, ctx.config),
          result.video.video_thumbnail_url,
        ),
      };
    },
  );
}
