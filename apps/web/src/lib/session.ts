import { FULL_ACCESS, type LoginBody, type SessionInfo } from '@pathway/contract';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { ApiError, apiJson, isApiError } from './api';

export const SESSION_KEY = ['session'] as const;

/**
 * Navigation state for /login: a sentence the sign-in page shows above its form, such as why the
 * session ended (a password change ends every session, the one that made it included).
 */
export interface SignInNotice {
  notice: string;
}

/** Who is signed in, or null. The session cookie is HttpOnly: the server is the only one to ask. */
export async function fetchSession(): Promise<SessionInfo | null> {
  try {
    return await apiJson<SessionInfo>('/api/session');
  } catch (error) {
    if (isApiError(error, 401)) return null;
    throw error;
  }
}

export const sessionQuery = queryOptions({
  queryKey: SESSION_KEY,
  queryFn: fetchSession,
  // The route guard asks the server on every navigation; components read what it learnt.
  staleTime: 60_000,
  retry: false,
});

/** The signed-in admin inside the console (the route guard has made sure there is one). */
export function useSession(): SessionInfo | null | undefined {
  return useQuery(sessionQuery).data;
}

export function isFullAccess(session: SessionInfo | null | undefined): boolean {
  return session?.role === FULL_ACCESS;
}

/** POST /login. Any failure, whatever its cause, is reported the same way by the caller. */
export async function signIn(credentials: LoginBody): Promise<SessionInfo> {
  const answer = await apiJson<{ session: SessionInfo }>('/login', { method: 'POST', body: credentials });
  return answer.session;
}

/**
 * Ends the session on the server, leaves the console and forgets every answer held in memory, so
 * that nothing of the console can be shown again (the Back button included) without signing in.
 */
export function useLogout(): () => Promise<void> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(async () => {
    try {
      await apiJson('/logout', { method: 'POST' });
    } catch (error) {
      // Already signed out (or the server is away): leaving the console is still right.
      if (!(error instanceof ApiError)) throw error;
    }
    await navigate('/login', { replace: true });
    queryClient.clear();
  }, [queryClient, navigate]);
}
