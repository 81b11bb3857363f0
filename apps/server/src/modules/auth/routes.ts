import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse, loginBody, messages, okResponse, sessionResponse } from '@pathway/contract';
import type { AppContext } from '../../context.js';
import { LoginService } from './login-service.js';
import { SESSION_COOKIE, type StaffSession } from './sessions.js';

function presentSession(s: StaffSession) {
  return {
    admin_user_id: s.adminUserId,
    user_name: s.userName,
    first_name: s.firstName,
    last_name: s.lastName,
    role: s.role,
    expires_at: s.expiresAt.toISOString(),
  };
}

function cookieOptions(request: FastifyRequest) {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: request.protocol === 'https',
  };
}

export async function authRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const logins = new LoginService(ctx.db, ctx.clock, ctx.sessions);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/login',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Sign in with user name, password and TOTP code; sets the jwt session cookie',
        body: loginBody,
        response: { 200: z.object({ message: z.string(), session: sessionResponse }), 401: errorResponse },
      },
      // Any failure, even a malformed body, reads the same: nothing hints at what was wrong.
      errorHandler: (error, _request, reply: FastifyReply) => {
        const status = (error as { statusCode?: number }).statusCode ?? 500;
        if (status >= 500) void reply.send(error);
        else void reply.status(401).send({ message: messages.login.failed });
      },
    },
    async (request, reply) => {
      const result = await logins.login(request.body, request.ip);
      request.log.info({ admin_user_id: result.admin.admin_user_id }, 'admin signed in');
      reply.setCookie(SESSION_COOKIE, result.token, {
        ...cookieOptions(request),
        expires: result.expiresAt,
      });
      return {
        message: 'Signed in',
        session: {
          admin_user_id: result.admin.admin_user_id,
          user_name: result.admin.user_name,
          first_name: result.admin.first_name,
          last_name: result.admin.last_name,
          role: result.role,
          expires_at: result.expiresAt.toISOString(),
        },
      };
    },
  );

  r.post(
    '/logout',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'End the session on the server and clear the cookie',
        response: { 200: okResponse },
      },
    },
    async (request, reply) => {
      const session = await ctx.sessions.resolve(request.cookies[SESSION_COOKIE]);
      if (session) await ctx.sessions.end(session.sessionId);
      reply.clearCookie(SESSION_COOKIE, cookieOptions(request));
      return { message: 'Signed out' };
    },
  );

  r.get(
    '/api/session',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['auth'],
        summary: 'Who is signed in, and their role',
        response: { 200: sessionResponse, 401: errorResponse },
      },
    },
    async (request) => presentSession(request.staff!),
  );
}
