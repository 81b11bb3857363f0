import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { api, can, messages } from '@pathway/contract';
import type { AppContext } from '../../context.js';
import { routeOf } from '../../lib/endpoint-route.js';
import { assertFreshStepUp, staffOf } from '../../plugins/access.js';
import { actorOf } from '../audit/index.js';
import { presentEnrolment } from './presenter.js';
import { AdminService, type AdminManager } from './service.js';

/** The signed-in admin as the manager of admin accounts (their organisation, sites, flag). */
function managerOf(request: FastifyRequest): AdminManager {
  const staff = staffOf(request);
  return {
    ...actorOf(request),
    organisationId: staff.organisationId,
    siteIds: staff.siteIds,
    systemAdministrator: staff.systemAdministrator,
  };
}

export async function adminRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const admins = new AdminService(ctx.db, ctx.secrets);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.route({
    ...routeOf(api.admins.list),
    handler: async (request) => admins.list(managerOf(request)),
  });

  r.route({
    ...routeOf(api.admins.create),
    handler: async (request, reply) => {
      // A new full-access admin or system administrator is a dangerous action: the session proves
      // itself first.
      if (can(request.body.role, 'admins.manage') || request.body.system_administrator)
        assertFreshStepUp(ctx, request);
      const created = await admins.create(request.body, managerOf(request));
      request.log.info(
        { admin_user_id: created.admin.admin_user_id, by: request.staff!.adminUserId },
        'admin user added',
      );
      return reply.status(201).send(presentEnrolment(created));
    },
  });

  r.route({
    ...routeOf(api.admins.update),
    handler: async (request) => {
      if (request.body.system_administrator) assertFreshStepUp(ctx, request);
      const updated = await admins.update(request.params.user_name, request.body, managerOf(request), () =>
        assertFreshStepUp(ctx, request),
      );
      request.log.info(
        { admin_user_id: updated.admin_user_id, by: request.staff!.adminUserId },
        'admin user changed',
      );
      return updated;
    },
  });

  r.route({
    ...routeOf(api.admins.remove),
    handler: async (request) => {
      await admins.remove(request.params.user_name, managerOf(request));
      request.log.info({ by: request.staff!.adminUserId }, 'admin user deleted');
      return { message: 'Admin user deleted' };
    },
  });

  r.route({
    ...routeOf(api.admins.resetAuthenticator, { stepUp: true }),
    handler: async (request) => {
      const reset = await admins.resetAuthenticator(request.params.user_name, managerOf(request));
      request.log.info(
        { admin_user_id: reset.admin.admin_user_id, by: request.staff!.adminUserId },
        'admin authenticator reset',
      );
      return { ...presentEnrolment(reset), message: messages.admin.authenticatorReset };
    },
  });

  r.route({
    ...routeOf(api.admins.resetPassword, { stepUp: true }),
    handler: async (request) => {
      const admin = await admins.resetPassword(
        request.params.user_name,
        request.body.new_password,
        managerOf(request),
      );
      request.log.info(
        { admin_user_id: admin.admin_user_id, by: request.staff!.adminUserId },
        'admin password reset',
      );
      return { message: messages.admin.passwordReset };
    },
  });
}
