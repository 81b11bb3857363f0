import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { SSO_STEP_UP_DONE_PATH, api, messages, type SsoRefusal } from '@pathway/contract';
import type { AppContext } from '../../context.js';
import { routeOf } from '../../lib/endpoint-route.js';
import { HttpError } from '../../lib/http-error.js';
import { publicBase } from '../../lib/public-base.js';
import { SESSION_COOKIE } from '../../lib/staff-session.js';
import { staffOf } from '../../plugins/access.js';
import { routeRateLimit } from '../../plugins/rate-limit.js';
import { actorOf } from '../audit/index.js';
import { sessionCookieOptions } from '../auth/index.js';
import { assertMayConfigureSso } from './access.js';
import { backchannelLogout } from './backchannel.js';
import { emailDomainOf } from './claims.js';
import { testConnection } from './connection-test.js';
import { FLOW_COOKIE, FLOW_TTL_MS, SsoFlows, type Started } from './flows.js';
import { presentSettings, publishedKeys, saveSettings, settingsForDomain, settingsOf } from './settings.js';

const MINUTE_MS = 60_000;

/**
 * The flow cookie: HttpOnly, for the single sign-on routes only, and SameSite=Lax, since the
 * provider's redirect back is a navigation from another site (a Strict cookie would not come
 * with it); it holds a state and its signature, nothing secret.
 */
function flowCookieOptions(request: FastifyRequest) {
  return {
    path: '/api/sso/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: request.protocol === 'https',
  };
}

/** Only fixed addresses of the console: nothing the caller sends decides where the browser goes. */
const signInRefused = (reason: SsoRefusal) => `/login?sso=${reason}`;
const stepUpEnded = (reason?: SsoRefusal) =>
  reason ? `${SSO_STEP_UP_DONE_PATH}?sso=${reason}` : SSO_STEP_UP_DONE_PATH;

export async function ssoRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const flows = new SsoFlows(ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();
  // A person's sign-in calls the lookup, the start and the callback once each; these bound what
  // one address can ask of the providers and the database, like the password sign-in's limit.
  const perAddress = (name: string, max: number) =>
    routeRateLimit(
      { max, timeWindow: MINUTE_MS, keyGenerator: (request) => `${name}:${request.ip}` },
      messages.login.tooManyAttempts,
    );
  const signInLimit = ctx.config.loginLimits.perAddress * 3;

  const toProvider = (request: FastifyRequest, reply: FastifyReply, started: Started) => {
    void reply.setCookie(FLOW_COOKIE, started.cookie, {
      ...flowCookieOptions(request),
      maxAge: FLOW_TTL_MS / 1000,
    });
    return reply.redirect(started.location.href, 302);
  };

  // ---- settings ----

  r.route({
    ...routeOf(api.sso.get),
    handler: async (request) => {
      await assertMayConfigureSso(ctx, request, request.params.id, { change: false });
      return presentSettings(ctx.db, request.params.id, publicBase(ctx.config, request));
    },
  });

  r.route({
    ...routeOf(api.sso.update, { stepUp: true }),
    handler: async (request) => {
      await assertMayConfigureSso(ctx, request, request.params.id, { change: true });
      await saveSettings(ctx.db, ctx.secrets, request.params.id, request.body, actorOf(request));
      request.log.info(
        { organisation_id: request.params.id, by: staffOf(request).adminUserId },
        'single sign-on settings saved',
      );
      return presentSettings(ctx.db, request.params.id, publicBase(ctx.config, request));
    },
  });

  r.route({
    ...routeOf(api.sso.test, {
      rateLimit: perAddress('sso-test', 30),
    }),
    handler: async (request) => {
      await assertMayConfigureSso(ctx, request, request.params.id, { change: false });
      const stored = await settingsOf(ctx.db, request.params.id);
      const issuer = request.body.issuer ?? stored?.issuer;
      if (!issuer) throw new HttpError(404, messages.sso.notConfigured);
      return testConnection({
        issuer,
        client_auth: request.body.client_auth ?? stored?.client_auth ?? 'client_secret_basic',
        acr_values:
          request.body.acr_values !== undefined ? request.body.acr_values : (stored?.acr_values ?? null),
      });
    },
  });

  r.route({
    ...routeOf(api.sso.jwks),
    handler: async () => publishedKeys(ctx.db, ctx.secrets),
  });

  // ---- the sign-in page ----

  r.route({
    ...routeOf(api.auth.ssoLookup, { rateLimit: perAddress('sso-lookup', signInLimit) }),
    handler: async (request) => {
      const domain = emailDomainOf(request.query.email);
      return { single_sign_on: domain !== null && (await settingsForDomain(ctx.db, domain)) !== null };
    },
  });

  r.route({
    ...routeOf(api.sso.start, { rateLimit: perAddress('sso-start', signInLimit) }),
    handler: async (request, reply) => {
      const started = await flows.startSignIn(
        request.query.email,
        publicBase(ctx.config, request),
        request.ip,
      );
      if (typeof started === 'string') return reply.redirect(signInRefused(started), 302);
      return toProvider(request, reply, started);
    },
  });

  r.route({
    ...routeOf(api.sso.callback, { rateLimit: perAddress('sso-callback', signInLimit) }),
    handler: async (request, reply) => {
      const finished = await flows.finish(
        request.query,
        request.cookies[FLOW_COOKIE],
        publicBase(ctx.config, request),
        request.ip,
      );
      void reply.clearCookie(FLOW_COOKIE, flowCookieOptions(request));
      if ('refused' in finished)
        return reply.redirect(
          finished.purpose === 'step-up' ? stepUpEnded(finished.refused) : signInRefused(finished.refused),
          302,
        );
      if (finished.purpose === 'step-up') {
        request.log.info('admin stepped up through the identity provider');
        return reply.redirect(stepUpEnded(), 302);
      }
      request.log.info(
        { admin_user_id: finished.adminUserId },
        'admin signed in through the identity provider',
      );
      void reply.setCookie(SESSION_COOKIE, finished.token, {
        ...sessionCookieOptions(request),
        expires: finished.expiresAt,
      });
      return reply.redirect('/dashboard', 302);
    },
  });

  r.route({
    ...routeOf(api.sso.stepUp, { rateLimit: perAddress('sso-step-up', signInLimit) }),
    handler: async (request, reply) => {
      const staff = staffOf(request);
      if (staff.ssoOrganisationId === null) return reply.redirect(stepUpEnded('unknown_domain'), 302);
      const started = await flows.startStepUp(
        { ...staff, ssoOrganisationId: staff.ssoOrganisationId },
        publicBase(ctx.config, request),
        request.ip,
      );
      if (typeof started === 'string') return reply.redirect(stepUpEnded(started), 302);
      return toProvider(request, reply, started);
    },
  });

  // ---- the provider's calls ----

  r.route({
    ...routeOf(api.sso.backchannelLogout, {
      rateLimit: perAddress('sso-backchannel', ctx.config.loginLimits.overall),
    }),
    handler: async (request) => {
      try {
        const ended = await backchannelLogout(ctx, request.body.logout_token, request.ip);
        request.log.info({ sessions_ended: ended }, 'back-channel logout');
      } catch (error) {
        const why = (error as { why?: string }).why;
        if (why) request.log.warn(`back-channel logout refused: ${why}`);
        throw error;
      }
      return { message: 'Signed out' };
    },
  });
}
