import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type RouteOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { AppContext } from './context.js';
import { accessPlugin, requireDeclaredAccess, runHandlersInScope } from './plugins/access.js';
import { diskReservePlugin } from './plugins/disk-reserve.js';
import { docsPlugin } from './plugins/docs.js';
import { errorsPlugin } from './plugins/errors.js';
import { inputGuardPlugin } from './plugins/input-guard.js';
import { rateLimitPlugin } from './plugins/rate-limit.js';
import { requestOriginPlugin } from './plugins/request-origin.js';
import { securityHeadersPlugin } from './plugins/security-headers.js';
import { webPlugin } from './plugins/web.js';
import { adminRoutes } from './modules/admin/index.js';
import { auditRoutes } from './modules/audit/index.js';
import { deviceRoutes } from './modules/devices/index.js';
import { authRoutes, lockoutRoutes } from './modules/auth/index.js';
import { organisationRoutes } from './modules/organisations/index.js';
import { healthRoutes } from './modules/health/index.js';
import { logRoutes } from './modules/logs/index.js';
import {
  participantExportRoutes,
  participantImportRoutes,
  participantRoutes,
} from './modules/participants/index.js';
// Bulk referrals from CSV
import { mediaRoutes, uploadRoutes, videoRoutes } from './modules/videos/index.js';
import { progressRoutes } from './modules/progress/index.js';
import { deviceApiRoutes } from './modules/device-api/index.js';
import { dashboardRoutes } from './modules/dashboard/index.js';
import { pushRoutes } from './modules/push/index.js';
// Follow-up worklist, contact log and message fates.
import { followupRoutes } from './modules/followup/index.js';
import { retentionRoutes } from './modules/retention/index.js';
// Reports
import { reportRoutes } from './modules/reports/index.js';
import { lifeCycleRoutes } from './modules/life-cycle/index.js';
import { ssoRoutes } from './modules/sso/index.js';
import { outcomeRoutes } from './modules/outcomes/index.js';

/** Each domain's routes; a module added here inherits validation, access control and docs. */
const modules = [
  healthRoutes,
  authRoutes,
  lockoutRoutes,
  adminRoutes,
  organisationRoutes,
  logRoutes,
  deviceRoutes,
  participantRoutes,
  participantExportRoutes,
  // Bulk referrals from CSV
  participantImportRoutes,
  auditRoutes,
  videoRoutes,
  uploadRoutes,
  mediaRoutes,
  progressRoutes,
  deviceApiRoutes,
  dashboardRoutes,
  // Reports
  reportRoutes,
  pushRoutes,
  // Follow-up.
  followupRoutes,
  retentionRoutes,
  lifeCycleRoutes,
  ssoRoutes,
  outcomeRoutes,
];

export interface BuildOptions {
  /** Told of every route as it is added (the authorization matrix test lists them this way). */
  onRoute?: (route: RouteOptions) => void;
  /** Where the built console is (default apps/web/dist); tests serve a small one of their own. */
  webRoot?: string;
}

export async function buildApp(ctx: AppContext, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    // The cast keeps Fastify's generic logger type: inferred from pino's Logger, the app's type would
    // not match FastifyInstance (the rule cannot see that it changes the inferred generic).
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
    loggerInstance: ctx.logger as FastifyBaseLogger,
    trustProxy: ctx.config.trustProxy,
    bodyLimit: 1024 * 1024,
  });
  // Added first, on the root, so it sees the routes of every plugin registered after it.
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(errorsPlugin);
  await app.register(securityHeadersPlugin, {
    extraMediaOrigins: ctx.config.s3 ? [new URL(ctx.config.s3.endpoint).origin] : [],
  });
  await app.register(cookie);
  // The tablet app posts form bodies (every value a string); request-origin keeps them off staff routes.
  await app.register(formbody);
  await app.register(docsPlugin);
  await app.register(accessPlugin, { ctx });
  await app.register(rateLimitPlugin, { ctx });
  // After the access check, so a stranger still gets 401 and the role check stays first.
  await app.register(requestOriginPlugin, { config: ctx.config });
  await app.register(inputGuardPlugin);
  // After access and origin checks: a stranger still gets 401/403, a signed-in writer 503 when the disk is full.
  await app.register(diskReservePlugin, { ctx });

  await app.register(async (api) => {
    requireDeclaredAccess(api);
    runHandlersInScope(api);
    for (const routes of modules) await api.register(routes, { ctx });
  });

  await app.register(webPlugin, { root: options.webRoot });
  return app;
}
