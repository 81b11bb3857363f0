import { z } from 'zod';
import { loginBody, sessionResponse } from './auth.js';
import { okResponse } from './common.js';
import { endpoint } from './endpoint.js';
import { SESSION_ROUTES } from './session-routes.js';

/**
 * Signing in and out, and asking who is signed in: the server's entries for them. The sign-in
 * page calls them by SESSION_ROUTES (their method and path, without zod) typed as these.
 */
export const sessionEndpoints = {
  login: endpoint({
    ...SESSION_ROUTES.login,
    body: loginBody,
    responses: { 200: z.object({ message: z.string(), session: sessionResponse }) },
    errors: [401, 403, 429, 503],
    tags: ['auth'],
    summary: 'Sign in with user name, password and TOTP code; sets the jwt session cookie',
  }),
  logout: endpoint({
    ...SESSION_ROUTES.logout,
    responses: { 200: okResponse },
    errors: [],
    tags: ['auth'],
    summary: 'End the session on the server and clear the cookie',
  }),
  session: endpoint({
    ...SESSION_ROUTES.session,
    responses: { 200: sessionResponse },
    errors: [401],
    tags: ['auth'],
    summary: 'Who is signed in, and their role',
  }),
};
