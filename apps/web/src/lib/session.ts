import { apiRoutes, can, type Permission, type SessionInfo } from '@pathway/contract';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { ApiError, call } from './api';
import { sessionKeys } from './queryKeys';
import { fetchSession } from './sessionRequests';

export const SESSION_KEY = sessionKeys.all;

/**
 * Navigation state for /login: a sentence the sign-in page shows above its form, such as why the
 * session ended (a password change ends every session, the one that made it included).
 */
export interface SignInNotice {
  notice: string;
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

/**
 * What the signed-in admin's role may do (the contract's permission table), to show only what the
 * server would allow; the server enforces every permission itself. Nobody signed in may do nothing.
 */
export function useCan(): (permission: Permission) => boolean {
  const role = useSession()?.role;
  return useCallback((permission: Permission) => role !== undefined && can(role, permission), [role]);
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
      await call(apiRoutes.auth.logout);
    } catch (error) {
      // Already signed out (or the server is away): leaving the console is still right.
      if (!(error instanceof ApiError)) throw error;
    }
    await navigate('/login', { replace: true });
    queryClient.clear();
  }, [queryClient, navigate]);
}
