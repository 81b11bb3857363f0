import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { deviceApi, messages } from '@pathway/contract';
import type { AppContext } from '../../context.js';
import { instanceScope, withScope } from '../../db/scope.js';
import { routeOf } from '../../lib/endpoint-route.js';
import type { DeviceCaller } from '../../plugins/access.js';
import { presentDeviceProgress } from '../progress/index.js';
import { publicOrigin } from '../videos/index.js';
import { combinedRateLimit, keyByAddress, keyByParam } from '../../plugins/rate-limit.js';
import { presentDeviceVideo } from './presenter.js';
import { DeviceApiService } from './service.js';

/**
 * The tablet app's calls (device-api.md), answered exactly as the app reads them. Calls 3
 * (PATCH /api/participant/{id}) and 6 (GET /api/video/thumbs/{id}) share their paths with the
 * console and live with the participants and videos modules.
 */
const m = messages.deviceApi;

/**
 * Calls 1 and 2 name a device by its id, before there is a token: it is looked for among every
 * organisation's devices, and the statements read and write that device's participant alone.
 */
const TABLET_REGISTRATION = instanceScope('tablet registration');

export async function deviceApiRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const service = new DeviceApiService(ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const caller = (request: FastifyRequest): DeviceCaller => request.device!;

  // Calls 1 and 2 carry no token: each is limited per source address and per device id, so ids
  // cannot be guessed at any rate and one id cannot be hammered from many addresses; both counted
  // in one go. A real tablet makes each a few times a day.
  const limits = ctx.config.deviceRateLimit;
  const limited = (name: string) =>
    combinedRateLimit(
      app,
      [
        { max: limits.perAddress, timeWindow: limits.windowMs, keyGenerator: keyByAddress(name) },
        { max: limits.perDevice, timeWindow: limits.windowMs, keyGenerator: keyByParam(name, 'deviceId') },
      ],
      m.rateLimited,
    );

  r.route({
    ...routeOf(deviceApi.register),
    onRequest: limited('device-sign-in'),
    handler: async (request, reply) => {
      // Written as JSON by the service (presenter.ts), the set's video list kept per version.
      const registration = await withScope(TABLET_REGISTRATION, () =>
        service.register(request.params.deviceId, request.ip, publicOrigin(request, ctx.config)),
      );
      request.log.info({ participant_id: registration.participantId }, 'tablet registered');
      return reply.type('application/json; charset=utf-8').send(registration.json as never);
    },
  });

  r.route({
    ...routeOf(deviceApi.savePushToken),
    onRequest: limited('device-push-token'),
    handler: async (request) => {
      await withScope(TABLET_REGISTRATION, () =>
        service.savePushToken(request.params.deviceId, request.body.push_notification_id, request.ip),
      );
      return { message: 'Push token saved' };
    },
  });

  r.route({
    ...routeOf(deviceApi.todaysVideos),
    handler: async (request) => {
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
  });

  r.route({
    ...routeOf(deviceApi.progress),
    handler: async (request) =>
      presentDeviceProgress(await service.progressById(caller(request), request.params.progressId)),
  });

  r.route({
    ...routeOf(deviceApi.summary),
    handler: async (request) =>
      service.summary(caller(request), request.params.videoSetId, request.params.participantId),
  });

  r.route({
    ...routeOf(deviceApi.reportViews),
    handler: async (request) => {
      const { newlySeen } = await service.reportViews(
        caller(request),
        request.params.videoSetId,
        request.params.participantId,
        request.body.videoIds,
      );
      return { message: newlySeen > 0 ? 'Views recorded' : 'Already recorded' };
    },
  });
}
