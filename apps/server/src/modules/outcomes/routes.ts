import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { api } from '@pathway/contract';
import type { AppContext } from '../../context.js';
import { routeOf } from '../../lib/endpoint-route.js';
import { programmeToday } from '../../lib/programme-day.js';
import { staffOf } from '../../plugins/access.js';
import { actorOf, AuditService } from '../audit/index.js';
import { publicOrigin } from '../videos/index.js';
import { FhirExport } from './fhir.js';
import { MeasureCatalogue } from './measures.js';
import { ResultService, type OutcomesClock, type Staff } from './results.js';
import { ScheduleService } from './schedule.js';

function staffActor(request: FastifyRequest): Staff {
  return { ...actorOf(request), role: staffOf(request).role };
}

/** Outcome measures, each video set's assessment schedule, and the results recorded against them. */
export async function outcomeRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const audit = new AuditService(ctx.db);
  const catalogue = new MeasureCatalogue(ctx.db, audit);
  const schedules = new ScheduleService(ctx.db, audit);
  const results = new ResultService(ctx.db, audit);
  const fhir = new FhirExport(ctx.db, audit);
  const clock = (): OutcomesClock => ({
    today: programmeToday(ctx),
    timeZone: ctx.config.adherenceCheck.timeZone,
    now: ctx.clock.now(),
  });
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.route({ ...routeOf(api.outcomes.measures), handler: async () => catalogue.list() });

  r.route({
    ...routeOf(api.outcomes.createMeasure),
    handler: async (request, reply) =>
      reply.status(201).send(await catalogue.create(request.body, actorOf(request))),
  });

  r.route({
    ...routeOf(api.outcomes.updateMeasure),
    handler: async (request) => catalogue.update(request.params.id, request.body, actorOf(request)),
  });

  r.route({
    ...routeOf(api.outcomes.schedule),
    handler: async (request) => schedules.get(request.params.id),
  });

  r.route({
    ...routeOf(api.outcomes.saveSchedule),
    handler: async (request) => schedules.save(request.params.id, request.body, actorOf(request)),
  });

  r.route({
    ...routeOf(api.outcomes.results),
    handler: async (request) => results.list(request.params.id, staffActor(request), clock()),
  });

  r.route({
    ...routeOf(api.outcomes.record),
    handler: async (request, reply) => {
      const entry = await results.record(request.params.id, request.body, staffActor(request), clock());
      request.log.info(
        { participant_id: request.params.id, assessment_id: entry.assessment_id },
        'result recorded',
      );
      return reply.status(201).send(entry);
    },
  });

  r.route({
    ...routeOf(api.outcomes.amend),
    handler: async (request, reply) => {
      const { id, assessment_id } = request.params;
      const entry = await results.amend(id, assessment_id, request.body, staffActor(request), clock());
      request.log.info(
        { participant_id: id, assessment_id: entry.assessment_id, amends: entry.amends },
        'result amended',
      );
      return reply.status(201).send(entry);
    },
  });

  r.route({
    ...routeOf(api.outcomes.ofParticipant),
    handler: async (request) => results.outcomes(request.params.id, clock()),
  });

  r.route({
    ...routeOf(api.outcomes.fhir),
    handler: async (request, reply) => {
      const bundle = await fhir.bundle(
        request.params.id,
        actorOf(request),
        publicOrigin(request, ctx.config),
        ctx.clock.now(),
      );
      return reply
        .type('application/fhir+json; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(JSON.stringify(bundle) as never);
    },
  });
}
