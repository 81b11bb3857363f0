import { SESSION_ROUTES, type LoginBody, type SessionInfo, type sessionEndpoints } from '@pathway/contract';
import { call, isApiError } from './api';

// The two session calls the sign-in page makes. They live apart from ./session (its hooks need
// react-query and react-router) so that the sign-in page can load without either, and they name
// their routes by SESSION_ROUTES (method and path) so that it loads without zod too: call() reads
// nothing else of an entry, and the types are the full entries'.
type SessionEndpoints = typeof sessionEndpoints;
const sessionRoute = SESSION_ROUTES.session as SessionEndpoints['session'];
const loginRoute = SESSION_ROUTES.login as SessionEndpoints['login'];

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
