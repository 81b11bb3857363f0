import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  authorisedDevice,
  authorisedDeviceView,
  createDeviceBody,
  deviceIdParams,
  deviceUuidParams,
  errorResponse,
  okResponse,
  updateDeviceBody,
} from '@pathway/contract';
import type { AppContext } from '../../context.js';
import { staffOf } from '../../plugins/access.js';
import { AuditService, actorOf } from '../audit/service.js';
import { DeviceService } from './service.js';

export async function deviceRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const devices = new DeviceService(ctx.db, new AuditService(ctx.db));
  const r = app.withTypeProvider<ZodTypeProvider>();
  const errors = {
    400: errorResponse,
    401: errorResponse,
    403: errorResponse,
    404: errorResponse,
    409: errorResponse,
  };
  const tags = ['authorised devices'];

  r.get(
    '/api/authorizeddevices',
    {
      config: { access: 'staff' },
      schema: {
        tags,
        summary: "Every authorised device; full access also sees the assigned participant's names",
        response: { 200: z.array(authorisedDeviceView), ...errors },
      },
    },
    async (request) => devices.list(staffOf(request).role, actorOf(request)),
  );

  r.get(
    '/api/authorizeddevices/available',
    {
      config: { access: 'staff' },
      schema: {
        tags,
        summary: 'Devices not assigned to any participant',
        response: { 200: z.array(authorisedDevice), ...errors },
      },
    },
    async () => devices.available(),
  );

  r.get(
    '/api/authorizeddevices/:uuid',
    {
      config: { access: 'staff' },
      schema: {
        tags,
        summary: 'The device with this uuid, as an array (empty when unknown)',
        params: deviceUuidParams,
        response: { 200: z.array(authorisedDeviceView), ...errors },
      },
    },
    async (request) => devices.byUuid(request.params.uuid, staffOf(request).role, actorOf(request)),
  );

  r.post(
    '/api/authorizeddevices',
    {
      config: { access: 'staff' },
      schema: {
        tags,
        summary: 'Add a device (the uuid is stored lower-cased and must be unique)',
        body: createDeviceBody,
        response: { 201: authorisedDevice, ...errors },
      },
    },
    async (request, reply) => {
      const device = await devices.create(request.body);
      request.log.info(
        { authorized_device_id: device.authorized_device_id, by: request.staff!.adminUserId },
        'device added',
      );
      return reply.status(201).send(device);
    },
  );

  r.patch(
    '/api/authorizeddevices/id/:id',
    {
      config: { access: 'staff' },
      schema: {
        tags,
        summary: "Change a device's name or uuid (a new uuid ends the old tablet's sign-in)",
        params: deviceIdParams,
        body: updateDeviceBody,
        response: { 200: authorisedDeviceView, ...errors },
      },
    },
    async (request) => {
      const device = await devices.update(request.params.id, request.body, staffOf(request).role);
      request.log.info(
        { authorized_device_id: device.authorized_device_id, by: request.staff!.adminUserId },
        'device changed',
      );
      return device;
    },
  );

  r.delete(
    '/api/authorizeddevices/id/:id',
    {
      config: { access: 'staff' },
      schema: {
        tags,
        summary: 'Delete an unassigned device',
        params: deviceIdParams,
        response: { 200: okResponse, ...errors },
      },
    },
    async (request) => {
      await devices.remove(request.params.id);
      request.log.info(
        { authorized_device_id: request.params.id, by: request.staff!.adminUserId },
        'device deleted',
      );
      return { message: 'Device deleted' };
    },
  );
}
