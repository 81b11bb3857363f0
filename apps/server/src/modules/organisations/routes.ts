import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { api } from '@pathway/contract';
import type { AppContext } from '../../context.js';
import { routeOf } from '../../lib/endpoint-route.js';
import { staffOf } from '../../plugins/access.js';
import { actorOf } from '../audit/index.js';
import { OrganisationService, type OrganisationReader } from './service.js';

function readerOf(request: FastifyRequest): OrganisationReader {
  const staff = staffOf(request);
  return { organisationId: staff.organisationId, systemAdministrator: staff.systemAdministrator };
}

/** Organisations and their sites: read by their own admins, managed by system administrators. */
export async function organisationRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const service = new OrganisationService(ctx.db);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.route({
    ...routeOf(api.organisations.list),
    handler: async (request) => service.list(readerOf(request)),
  });

  r.route({
    ...routeOf(api.organisations.create),
    handler: async (request, reply) => {
      const created = await service.create(request.body, actorOf(request));
      request.log.info(
        { organisation_id: created.organisation_id, by: request.staff!.adminUserId },
        'organisation added',
      );
      return reply.status(201).send(created);
    },
  });

  r.route({
    ...routeOf(api.organisations.update),
    handler: async (request) => service.update(request.params.id, request.body, actorOf(request)),
  });

  r.route({
    ...routeOf(api.organisations.sites),
    handler: async (request) => service.sites(request.params.id, readerOf(request)),
  });

  r.route({
    ...routeOf(api.organisations.createSite),
    handler: async (request, reply) => {
      const site = await service.createSite(request.params.id, request.body, actorOf(request));
      request.log.info({ site_id: site.site_id, by: request.staff!.adminUserId }, 'site added');
      return reply.status(201).send(site);
    },
  });

  r.route({
    ...routeOf(api.sites.update),
    handler: async (request) => service.updateSite(request.params.id, request.body, actorOf(request)),
  });
}
