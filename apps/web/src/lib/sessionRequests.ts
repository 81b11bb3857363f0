import { sessionEndpoints, type LoginBody, type SessionInfo } from '@pathway/contract';
import { call, isApiError } from './api';

// The two session calls the sign-in page makes. They live apart from ./session (its hooks need
// react-query and react-router) so that the sign-in page can load without either.

/** Who is signed in, or null. The session cookie is HttpOnly: the server is the only one to ask. */
export async function fetchSession(): Promise<SessionInfo | null> {
  try {
    return await call(sessionEndpoints.session);
  } catch (error) {
    if (isApiError(error, 401)) return null;
    throw error;
  }
}

/** POST /login. Any failure, whatever its cause, is reported the same way by the caller. */
export async function signIn(credentials: LoginBody): Promise<SessionInfo> {
  const answer = await call(sessionEndpoints.login, { body: credentials });
  return answer.session;
}
