import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  deviceIdParam,
  deviceProgress,
  deviceProgressParams,
  deviceRegistration,
  deviceSetParams,
  deviceTodayVideo,
  errorResponse,
  okResponse,
  progressSummary,
  pushTokenBody,
  viewReportBody,
} from '@pathway/contract';
import type { AppContext } from '../../context.js';
import { compiledOkSerializer } from '../../lib/compiled-serializer.js';
import type { DeviceCaller } from '../../plugins/access.js';
import { presentDeviceProgress } from '../progress/presenters.js';
import { publicOrigin } from '../videos/media-urls.js';
import { presentDeviceVideo, presentDeviceVideoSet } from './presenters.js';
import { DeviceApiService } from './service.js';

/**
 * The tablet app's calls (device-api.md), answered exactly as the app reads them. Calls 3
 * (PATCH /api/participant/{id}) and 6 (GET /api/video/thumbs/{id}) share their paths with the
 * console and live with the participants and videos modules.
 */
export async function deviceApiRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const service = new DeviceApiService(ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };
  const tags = ['tablet app'];
  const caller = (request: FastifyRequest): DeviceCaller => request.device!;

  r.get(
    '/uuid/:deviceId',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Call 1: the participant, programme and videos of this tablet, with a new bearer token',
        description:
          'Any answer but 200 makes the app show "This device is not registered": an unknown device, a device not ' +
          'assigned to a participant, or a participant without a video set.',
        params: deviceIdParam,
        response: { 200: deviceRegistration, ...errors },
      },
      // The whole programme (350 videos for 50 weeks): compiled once instead of checked by zod.
      serializerCompiler: compiledOkSerializer(deviceRegistration),
    },
    async (request) => {
      const registration = await service.register(request.params.deviceId, request.ip);
      const origin = publicOrigin(request, ctx.config);
      request.log.info({ participant_id: registration.participant.participant_id }, 'tablet registered');
      return {
        auth_token: registration.token,
        participant_id: registration.participant.participant_id,
        first_name: registration.participant.first_name,
        last_name: registration.participant.last_name,
        unique_device_id: registration.deviceUuid,
        purge_cache: registration.participant.purge_cache,
        videos: registration.videos.map((v) => presentDeviceVideo(v, origin)),
        fitness_video_sets: presentDeviceVideoSet(registration.progress.set),
        fitness_participation_progress: presentDeviceProgress(registration.progress.progress),
      };
    },
  );

  r.patch(
    '/uuid/:deviceId',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: "Call 2: the app's Firebase registration token, sent on every start",
        params: deviceIdParam,
        body: pushTokenBody,
        response: { 200: okResponse, ...errors },
      },
    },
    async (request) => {
      await service.savePushToken(request.params.deviceId, request.body.push_notification_id, request.ip);
      return { message: 'Push token saved' };
    },
  );

  r.get(
    '/api/videoset/today/:videoSetId/participant/:participantId',
    {
      config: { access: 'device' },
      schema: {
        tags,
        summary: "Call 4: the videos available today (every day up to the participant's current day)",
        params: deviceSetParams,
        response: { 200: z.array(deviceTodayVideo), ...errors },
      },
    },
    async (request) => {
      const { set, videos } = await service.todaysVideos(
        caller(request),
        request.params.videoSetId,
        request.params.participantId,
      );
      const origin = publicOrigin(request, ctx.config);
      const nested = {
        fitness_video_set_id: set.fitness_video_set_id,
        set_name: set.set_name,
        number_of_weeks: set.number_of_weeks,
        videos_in_week: set.videos_in_week,
      };
      return videos.map((v) => ({ ...presentDeviceVideo(v, origin), fitness_video_set: nested }));
    },
  );

  r.get(
    '/api/participationprogress/:progressId',
    {
      config: { access: 'device' },
      schema: {
        tags,
        summary: 'Call 5: the progress object',
        params: deviceProgressParams,
        response: { 200: deviceProgress, ...errors },
      },
    },
    async (request) =>
      presentDeviceProgress(await service.progressById(caller(request), request.params.progressId)),
  );

  r.get(
    '/api/summary/:videoSetId/participant/:participantId',
    {
      config: { access: 'device' },
      schema: {
        tags,
        summary: 'Call 7: the progress summary',
        params: deviceSetParams,
        response: { 200: progressSummary, ...errors },
      },
    },
    async (request) =>
      service.summary(caller(request), request.params.videoSetId, request.params.participantId),
  );

  r.post(
    '/api/videoset/view/:videoSetId/participant/:participantId',
    {
      config: { access: 'device' },
      schema: {
        tags,
        summary: 'Call 8: videos watched (JSON or form body); a video reported twice counts once',
        params: deviceSetParams,
        body: viewReportBody,
        response: { 200: okResponse, ...errors },
      },
    },
    async (request) => {
      const { newlySeen } = await service.reportViews(
        caller(request),
        request.params.videoSetId,
        request.params.participantId,
        request.body.videoIds,
      );
      return { message: newlySeen > 0 ? 'Views recorded' : 'Already recorded' };
    },
  );
}
