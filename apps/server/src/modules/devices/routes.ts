import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  authorisedDevice,
  authorisedDeviceView,
  createDeviceBody,
  deviceIdParams,
  deviceSignInPage,
  deviceSignInQuery,
  deviceUuidParams,
  errorResponse,
  okResponse,
  updateDeviceBody,
} from '@pathway/contract';
import type { AppContext } from '../../context.js';
import { staffOf } from '../../plugins/access.js';
import { AuditService, actorOf } from '../audit/service.js';
import { DeviceService, listDeviceSignIns } from './service.js';

export async function deviceRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const audit = new AuditService(ctx.db);
  const devices = new DeviceService(ctx.db, audit);
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
        description: 'Basic access sees the uuid of an assigned device masked (…7f3a).',
        response: { 200: z.array(authorisedDeviceView), ...errors },
      },
    },
    async (request) => devices.list(staffOf(request).role, actorOf(request)),
  );

  r.get(
    '/api/devicesignins',
    {
      config: { access: 'staff', permission: 'devices.signins' },
      schema: {
        tags,
        summary:
          'Device sign-in records: every call 1 that handed out a token and every call 2 that changed a push token, newest first',
        description:
          "A device id is not a secret; these records show who used one, from which address. `flagged` marks a call 1 from a new address while the tablet's token was in use within the hour. The read is recorded in the audit trail.",
        querystring: deviceSignInQuery,
        response: { 200: deviceSignInPage, ...errors },
      },
    },
    async (request) => listDeviceSignIns(ctx.db, audit, actorOf(request), request.query),
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
        description:
          'Changing the uuid of a device assigned to a participant needs full access. A masked uuid (…7f3a, as basic access sees it) means unchanged.',
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
