import {
  SESSION_ROUTES,
  type LoginBody,
  type RouteRef,
  type SessionInfo,
  type sessionEndpoints,
} from '@pathway/contract';
import { call, isApiError } from './api';

// The two session calls the sign-in page makes. They live apart from ./session (its hooks need
// react-query and react-router) so that the sign-in page can load without either, and they name
// their routes by SESSION_ROUTES (method and path) so that it loads without zod too, typed by
// their entries as every route of the console is (apiRoutes).
type SessionEndpoints = typeof sessionEndpoints;
const sessionRoute: RouteRef<SessionEndpoints['session']> = SESSION_ROUTES.session;
const loginRoute: RouteRef<SessionEndpoints['login']> = SESSION_ROUTES.login;
const ssoLookupRoute: RouteRef<SessionEndpoints['ssoLookup']> = SESSION_ROUTES.ssoLookup;

/** Who is signed in, or null. The session cookie is HttpOnly: the server is the only one to ask. */
export async function fetchSession(): Promise<SessionInfo | null> {
  try {
    return await call(sessionRoute);
  } catch (error) {
    if (isApiError(error, 401)) return null;
    throw error;
  }
}

/** POST /login. Any failure, whatever its cause, is reported the same way by the caller. */
export async function signIn(credentials: LoginBody): Promise<SessionInfo> {
  const answer = await call(loginRoute, { body: credentials });
  return answer.session;
}

/**
 * Whether a work email's domain signs in through its organisation's identity provider. Anything
 * that is no email, or a server that cannot be asked, goes on to the password form.
 */
export async function signsInWithProvider(email: string): Promise<boolean> {
  if (!email.includes('@')) return false;
  try {
    return (await call(ssoLookupRoute, { query: { email } })).single_sign_on;
  } catch {
    return false;
  }
}
