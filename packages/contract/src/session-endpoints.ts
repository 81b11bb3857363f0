import { z } from 'zod';
import { loginBody, logoutResponse, sessionResponse } from './auth.js';
import { endpoint } from './endpoint.js';
import { SESSION_ROUTES } from './session-routes.js';
import { ssoLookupAnswer, ssoLookupQuery } from './sso.js';

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
    responses: { 200: logoutResponse },
    errors: [],
    tags: ['auth'],
    summary: 'End the session on the server and clear the cookie',
    description:
      "A session signed in through an identity provider that offers RP-initiated logout also gets the provider's end-session address (`end_session_url`), which the console then opens.",
  }),
  session: endpoint({
    ...SESSION_ROUTES.session,
    responses: { 200: sessionResponse },
    errors: [401],
    tags: ['auth'],
    summary: 'Who is signed in, and their role',
  }),
  ssoLookup: endpoint({
    ...SESSION_ROUTES.ssoLookup,
    query: ssoLookupQuery,
    responses: { 200: ssoLookupAnswer },
    errors: [400, 429],
    tags: ['sso'],
    summary: "Whether a work email's domain signs in through its organisation's identity provider",
    description:
      'The sign-in page asks this for the email typed first: true sends the browser to GET /api/sso/start?email=, false shows the password and code form. Says nothing about whether the person has an account.',
  }),
};
