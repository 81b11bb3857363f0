import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { api } from '@pathway/contract';
import type { AppContext } from '../../context.js';
import { routeOf } from '../../lib/endpoint-route.js';
import { staffOf } from '../../plugins/access.js';
import { actorOf, AuditService } from '../audit/index.js';
import { DeviceService, listDeviceSignIns } from './service.js';

export async function deviceRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const audit = new AuditService(ctx.db);
  const devices = new DeviceService(ctx.db, audit);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.route({
    ...routeOf(api.devices.list),
    handler: async (request) => devices.list(staffOf(request).role, actorOf(request)),
  });

  r.route({
    ...routeOf(api.devices.signIns),
    handler: async (request) => listDeviceSignIns(ctx.db, audit, actorOf(request), request.query),
  });

  r.route({
    ...routeOf(api.devices.available),
    handler: async () => devices.available(),
  });

  r.route({
    ...routeOf(api.devices.byUuid),
    handler: async (request) => devices.byUuid(request.params.uuid, staffOf(request).role, actorOf(request)),
  });

  r.route({
    ...routeOf(api.devices.create),
    handler: async (request, reply) => {
      const device = await devices.create(request.body, staffOf(request).organisationId);
      request.log.info(
        { authorized_device_id: device.authorized_device_id, by: request.staff!.adminUserId },
        'device added',
      );
      return reply.status(201).send(device);
    },
  });

  r.route({
    ...routeOf(api.devices.update),
    handler: async (request) => {
      const device = await devices.update(request.params.id, request.body, staffOf(request).role);
      request.log.info(
        { authorized_device_id: device.authorized_device_id, by: request.staff!.adminUserId },
        'device changed',
      );
      return device;
    },
  });

  r.route({
    ...routeOf(api.devices.remove),
    handler: async (request) => {
      await devices.remove(request.params.id);
      request.log.info(
        { authorized_device_id: request.params.id, by: request.staff!.adminUserId },
        'device deleted',
      );
      return { message: 'Device deleted' };
    },
  });
}
