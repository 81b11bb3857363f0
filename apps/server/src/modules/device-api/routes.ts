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
  messages,
  okResponse,
  progressSummary,
  pushTokenBody,
  viewReportBody,
} from '@pathway/contract';
import type { AppContext } from '../../context.js';
import type { DeviceCaller } from '../../plugins/access.js';
import { presentDeviceProgress } from '../progress/presenters.js';
import { publicOrigin } from '../videos/media-urls.js';
import { extraRateLimit, keyByAddress, keyByParam, routeRateLimit } from '../../plugins/rate-limit.js';
import { presentDeviceVideo } from './presenters.js';
import { DeviceApiService } from './service.js';

/**
 * The tablet app's calls (device-api.md), answered exactly as the app reads them. Calls 3
 * (PATCH /api/participant/{id}) and 6 (GET /api/video/thumbs/{id}) share their paths with the
 * console and live with the participants and videos modules.
 */
const m = messages.deviceApi;

export async function deviceApiRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const service = new DeviceApiService(ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };
  const tags = ['tablet app'];
  const caller = (request: FastifyRequest): DeviceCaller => request.device!;

  // Calls 1 and 2 carry no token: each is limited per source address (the library's route limit)
  // and per device id (a second key on the same counters), so ids cannot be guessed at any rate
  // and one id cannot be hammered from many addresses. A real tablet makes each a few times a day.
  const limits = ctx.config.deviceRateLimit;
  const limited = (name: string) => ({
    rateLimit: routeRateLimit(
      { max: limits.perAddress, timeWindow: limits.windowMs, keyGenerator: keyByAddress(name) },
      m.rateLimited,
    ),
  });
  const perDevice = (name: string) =>
    extraRateLimit(
      app,
      { max: limits.perDevice, timeWindow: limits.windowMs, keyGenerator: keyByParam(name, 'deviceId') },
      m.rateLimited,
    );
  const tooMany = { 429: errorResponse };

  r.get(
    '/uuid/:deviceId',
    {
      config: { access: 'public', ...limited('device-sign-in') },
      onRequest: perDevice('device-sign-in'),
      schema: {
        tags,
        summary: 'Call 1: the participant, programme and videos of this tablet, with a new bearer token',
        description:
          'Any answer but 200 makes the app show "This device is not registered": an unknown device, a device not ' +
          'assigned to a participant, or a participant without a video set. Earlier tokens stay valid; every ' +
          'token handed out is recorded (GET /api/devicesignins). Rate limited per device id and per source ' +
          'address (429 with Retry-After).',
        params: deviceIdParam,
        response: { 200: deviceRegistration, ...errors, ...tooMany },
      },
    },
    async (request, reply) => {
      // Written as JSON by the service (presenters.ts), the set's video list kept per version.
      const registration = await service.register(
        request.params.deviceId,
        request.ip,
        publicOrigin(request, ctx.config),
      );
      request.log.info({ participant_id: registration.participantId }, 'tablet registered');
      return reply.type('application/json; charset=utf-8').send(registration.json as never);
    },
  );

  r.patch(
    '/uuid/:deviceId',
    {
      config: { access: 'public', ...limited('device-push-token') },
      onRequest: perDevice('device-push-token'),
      schema: {
        tags,
        summary: "Call 2: the app's Firebase registration token, sent on every start",
        description:
          'The app sends no bearer token with this call (its limit), so it is rate limited like call 1 and each ' +
          'change of token is recorded with the sign-ins.',
        params: deviceIdParam,
        body: pushTokenBody,
        response: { 200: okResponse, ...errors, ...tooMany },
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
        summary: "Call 4: today's session: the video of the participant's current week and day only",
        description:
          'Never empty while the participant has a position: a position only ever points at a day with a video.',
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
