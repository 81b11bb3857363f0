import { z } from 'zod';
import { loginBody, sessionResponse } from './auth.js';
import { okResponse } from './common.js';
import { endpoint } from './endpoint.js';

/**
 * Signing in and out, and asking who is signed in: apart from the rest of the table so that the
 * sign-in page, which loads before the console, carries only these schemas (bench/sys-bundle.ts).
 */
export const sessionEndpoints = {
  login: endpoint({
    method: 'POST',
    path: '/login',
    body: loginBody,
    responses: { 200: z.object({ message: z.string(), session: sessionResponse }) },
    errors: [401, 403, 429, 503],
    tags: ['auth'],
    summary: 'Sign in with user name, password and TOTP code; sets the jwt session cookie',
  }),
  logout: endpoint({
    method: 'POST',
    path: '/logout',
    responses: { 200: okResponse },
    errors: [],
    tags: ['auth'],
    summary: 'End the session on the server and clear the cookie',
  }),
  session: endpoint({
    method: 'GET',
    path: '/api/session',
    responses: { 200: sessionResponse },
    errors: [401],
    tags: ['auth'],
    summary: 'Who is signed in, and their role',
  }),
};
