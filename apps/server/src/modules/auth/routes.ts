import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { api, messages } from '@pathway/contract';
import type { AppContext } from '../../context.js';
import { routeOf } from '../../lib/endpoint-route.js';
import { instanceScope, withScope } from '../../db/scope.js';
import { HttpError } from '../../lib/http-error.js';
import { publicBase } from '../../lib/public-base.js';
import { SecretBoxError } from '../../lib/secret-box.js';
import { routeRateLimit } from '../../plugins/rate-limit.js';
import { actorOf } from '../audit/index.js';
import { LoginService } from './login-service.js';
import { presentSession } from './presenter.js';
import { SESSION_COOKIE } from './sessions.js';

/** Refusals of /login that are not about the credentials (see its error handler). */
const PASSED_THROUGH = new Set([403, 429, 503]);

/**
 * Sign-in limits (README, Security model), a minute each: by default 10 attempts from one address
 * (an office behind one NAT signs in far less often than that) and 300 from everywhere together, a
 * ceiling a spray from many addresses reaches before argon2 work (bounded in passwords.ts) does.
 */
const LOGIN_WINDOW_MS = 60_000;
/**
 * Changing one's own password: a person does it a few times a year. The wrong-password throttle
 * (per user name and address, shared with sign-in) is what stops guessing; this ceiling per admin
 * bounds the argon2 work one session can ask for.
 */
const PASSWORD_CHANGES_PER_WINDOW = 10;

const tooMany = (_request: FastifyRequest, context: { ttl: number }) =>
  new HttpError(429, messages.login.tooManyAttempts(Math.max(1, Math.ceil(context.ttl / 1000))));

/** The session cookie's options (set at sign-in, by password or single sign-on, and cleared the same way). */
export function sessionCookieOptions(request: FastifyRequest) {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: request.protocol === 'https',
  };
}

export async function authRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const logins = new LoginService(ctx.db, ctx.clock, ctx.sessions, ctx.secrets);
  const r = app.withTypeProvider<ZodTypeProvider>();
  // A second limit on the same route: createRateLimit gives a check that does not stand aside for
  // the per-address one (the plugin runs one limit per request otherwise).
  const overall = app.createRateLimit({
    max: ctx.config.loginLimits.overall,
    timeWindow: LOGIN_WINDOW_MS,
    keyGenerator: () => 'login-overall',
  });

  r.route({
    ...routeOf(api.auth.login, {
      sessionRoute: true,
      browserForm: true,
      rateLimit: {
        max: ctx.config.loginLimits.perAddress,
        timeWindow: LOGIN_WINDOW_MS,
        errorResponseBuilder: tooMany,
      },
    }),
    // After the per-address limit (added by the plugin on onRequest), so one address's flood
    // is refused before it counts against everyone's ceiling.
    preValidation: async (request, reply) => {
      const limit = await overall(request);
      if (limit.isAllowed || !limit.isExceeded) return;
      const seconds = Math.max(1, Math.ceil(limit.ttl / 1000));
      reply.header('retry-after', String(seconds));
      throw new HttpError(429, messages.login.tooManyAttempts(seconds));
    },
    // Any failure of the credentials, even a malformed body, reads the same: nothing hints at
    // what was wrong. A refusal before they are looked at (foreign origin, too many attempts,
    // too busy) says what it is, so the console can tell the person to wait.
    errorHandler: (error, request, reply: FastifyReply) => {
      const status = (error as { statusCode?: number }).statusCode ?? 500;
      if (error instanceof HttpError && error.cause instanceof SecretBoxError) {
        request.log.error(
          { err: error.cause },
          'sign-in refused: this instance cannot open the stored TOTP secret; the secrets key was rotated, restart it with the new key',
        );
      }
      if (PASSED_THROUGH.has(status) && error instanceof HttpError) {
        if (status === 503) reply.header('retry-after', '2');
        void reply.status(status).send({ message: error.message });
        return;
      }
      if (status >= 500) {
        void reply.send(error);
        return;
      }
      void reply.status(401).send({ message: messages.login.failed });
    },
    // Before anyone is known, the user name is looked for among every organisation's admins.
    handler: async (request, reply) =>
      withScope(instanceScope('sign-in'), async () => {
        const result = await logins.login(request.body, request.ip);
        request.log.info({ admin_user_id: result.admin.admin_user_id }, 'admin signed in');
        // The session as every later request will see it: organisation and sites included.
        const session = await ctx.sessions.resolve(result.token);
        if (!session) throw new HttpError(401, messages.login.failed);
        reply.setCookie(SESSION_COOKIE, result.token, {
          ...sessionCookieOptions(request),
          expires: result.expiresAt,
        });
        return { message: 'Signed in', session: await presentSession(ctx.db, session) };
      }),
  });

  r.route({
    ...routeOf(api.auth.logout, { sessionRoute: true }),
    handler: async (request, reply) => {
      const session = await ctx.sessions.resolve(request.cookies[SESSION_COOKIE]);
      // Signed in through a provider that offers RP-initiated logout: the console goes on there.
      const endSessionUrl = session
        ? await ctx.endSessionUrl(session, publicBase(ctx.config, request))
        : undefined;
      if (session) await ctx.sessions.end(session.sessionId);
      reply.clearCookie(SESSION_COOKIE, sessionCookieOptions(request));
      return { message: 'Signed out', ...(endSessionUrl ? { end_session_url: endSessionUrl } : {}) };
    },
  });

  r.route({
    ...routeOf(api.auth.changeOwnPassword, {
      rateLimit: routeRateLimit(
        {
          max: PASSWORD_CHANGES_PER_WINDOW,
          timeWindow: LOGIN_WINDOW_MS,
          keyGenerator: (request) => `account-password:${request.staff?.adminUserId ?? request.ip}`,
        },
        messages.admin.tooManyWrongAttempts,
      ),
    }),
    handler: async (request, reply) => {
      await logins.changeOwnPassword(request.staff!, request.body, request.ip);
      request.log.info({ admin_user_id: request.staff!.adminUserId }, 'admin changed own password');
      reply.clearCookie(SESSION_COOKIE, sessionCookieOptions(request));
      return { message: messages.admin.passwordChanged };
    },
  });

  r.route({
    ...routeOf(api.auth.stepUp, {
      rateLimit: routeRateLimit(
        {
          max: PASSWORD_CHANGES_PER_WINDOW,
          timeWindow: LOGIN_WINDOW_MS,
          keyGenerator: (request) => `step-up:${request.staff?.adminUserId ?? request.ip}`,
        },
        messages.admin.tooManyWrongAttempts,
      ),
    }),
    handler: async (request) => {
      await logins.stepUp(request.staff!, request.body, request.ip);
      request.log.info({ admin_user_id: request.staff!.adminUserId }, 'admin stepped up');
      return { message: messages.stepUp.done };
    },
  });

  r.route({
    ...routeOf(api.auth.session),
    handler: async (request) => presentSession(ctx.db, request.staff!),
  });
}

/** Sign-in locks: full-access staff see who is locked out or slowed down, and lift a lock. */
export async function lockoutRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const logins = new LoginService(ctx.db, ctx.clock, ctx.sessions, ctx.secrets);
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.route({
    ...routeOf(api.lockouts.list),
    handler: async () => logins.lockouts(),
  });

  r.route({
    ...routeOf(api.lockouts.lift),
    handler: async (request) => {
      await logins.unlock(request.params.user_name, actorOf(request));
      return { message: messages.admin.unlocked };
    },
  });
}
