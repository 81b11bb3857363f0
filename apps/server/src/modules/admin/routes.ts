import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminUser,
  adminUserNameParam,
  authenticatorReset,
  createAdminBody,
  createdAdminUser,
  errorResponse,
  messages,
  okResponse,
  resetPasswordBody,
  updateAdminBody,
} from '@pathway/contract';
import type { AppContext } from '../../context.js';
import { actorOf } from '../audit/service.js';
import { AdminService } from './service.js';

export async function adminRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const admins = new AdminService(ctx.db, ctx.secrets);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const errors = {
    400: errorResponse,
    401: errorResponse,
    403: errorResponse,
    404: errorResponse,
    409: errorResponse,
  };

  r.get(
    '/api/admin',
    {
      config: { access: 'staff', permission: 'admins.manage' },
      schema: {
        tags: ['admin users'],
        summary: 'List admin users',
        response: { 200: z.array(adminUser), ...errors },
      },
    },
    async () => admins.list(),
  );

  r.post(
    '/api/admin',
    {
      config: { access: 'staff', permission: 'admins.manage' },
      schema: {
        tags: ['admin users'],
        summary: 'Add an admin user; answers the QR code for their authenticator app',
        body: createAdminBody,
        response: { 201: createdAdminUser, ...errors },
      },
    },
    async (request, reply) => {
      const created = await admins.create(request.body, actorOf(request));
      request.log.info(
        { admin_user_id: created.admin.admin_user_id, by: request.staff!.adminUserId },
        'admin user added',
      );
      return reply
        .status(201)
        .send({ ...created.admin, qr_code: created.qrCode, otpauth_url: created.otpauthUrl });
    },
  );

  r.patch(
    '/api/admin/:user_name',
    {
      config: { access: 'staff', permission: 'admins.manage' },
      schema: {
        tags: ['admin users'],
        summary: 'Change role and names (the user name cannot change)',
        params: adminUserNameParam,
        body: updateAdminBody,
        response: { 200: adminUser, ...errors },
      },
    },
    async (request) => {
      const updated = await admins.update(request.params.user_name, request.body, actorOf(request));
      request.log.info(
        { admin_user_id: updated.admin_user_id, by: request.staff!.adminUserId },
        'admin user changed',
      );
      return updated;
    },
  );

  r.delete(
    '/api/admin/:user_name',
    {
      config: { access: 'staff', permission: 'admins.manage' },
      schema: {
        tags: ['admin users'],
        summary: 'Delete an admin user immediately',
        params: adminUserNameParam,
        response: { 200: okResponse, ...errors },
      },
    },
    async (request) => {
      await admins.remove(request.params.user_name, actorOf(request));
      request.log.info({ by: request.staff!.adminUserId }, 'admin user deleted');
      return { message: 'Admin user deleted' };
    },
  );

  r.post(
    '/api/admin/:user_name/reset-authenticator',
    {
      config: { access: 'staff', permission: 'admins.manage' },
      schema: {
        tags: ['admin users'],
        summary:
          "Reset another admin's authenticator: a new TOTP secret (answered once as a QR code), and every session of theirs ends",
        params: adminUserNameParam,
        response: { 200: authenticatorReset, ...errors },
      },
    },
    async (request) => {
      const reset = await admins.resetAuthenticator(request.params.user_name, actorOf(request));
      request.log.info(
        { admin_user_id: reset.admin.admin_user_id, by: request.staff!.adminUserId },
        'admin authenticator reset',
      );
      return {
        ...reset.admin,
        qr_code: reset.qrCode,
        otpauth_url: reset.otpauthUrl,
        message: messages.admin.authenticatorReset,
      };
    },
  );

  r.post(
    '/api/admin/:user_name/reset-password',
    {
      config: { access: 'staff', permission: 'admins.manage' },
      schema: {
        tags: ['admin users'],
        summary: "Set another admin's password (the password policy applies); every session of theirs ends",
        params: adminUserNameParam,
        body: resetPasswordBody,
        response: { 200: okResponse, ...errors },
      },
    },
    async (request) => {
      const admin = await admins.resetPassword(
        request.params.user_name,
        request.body.new_password,
        actorOf(request),
      );
      request.log.info(
        { admin_user_id: admin.admin_user_id, by: request.staff!.adminUserId },
        'admin password reset',
      );
      return { message: messages.admin.passwordReset };
    },
  );
}
