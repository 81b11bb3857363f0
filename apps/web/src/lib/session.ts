import {
  FIELD_PERMISSIONS,
  apiRoutes,
  can,
  type Caller,
  type FieldPermission,
  type Role,
  type RouteRef,
  type SessionInfo,
} from '@pathway/contract';
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
 * Whether a role may call a route, by the route's own `access` and `permission` (its entry in the
 * contract's route table), as the server decides it. Nobody signed in may call only public routes;
 * the tablet's routes are not the console's.
 */
export function canCall(
  caller: Role | Caller | undefined,
  route: Pick<RouteRef, 'access' | 'permission'>,
): boolean {
  if (route.access === 'public') return true;
  if (caller === undefined || route.access === 'device') return false;
  return route.permission === undefined || can(caller, route.permission);
}

/** Whether the signed-in admin may call a route (useCanCall, or canCall with a known session). */
export type CanCall = (route: Pick<RouteRef, 'access' | 'permission'>) => boolean;

/**
 * What the signed-in admin may do, asked by the route an action or page calls:
 * `canCall(apiRoutes.participants.remove)`. The console shows only what the server would allow and
 * never names a permission for it: a route's permission is written once, in its entry, so a button
 * cannot be shown by one permission while the server checks another. The server enforces it.
 */
export function useCanCall(): CanCall {
  const session = useSession();
  const role = session?.role;
  const systemAdministrator = session?.system_administrator ?? false;
  return useCallback(
    (route: Pick<RouteRef, 'access' | 'permission'>) =>
      canCall(role === undefined ? undefined : { role, systemAdministrator }, route),
    [role, systemAdministrator],
  );
}

/**
 * Whether the signed-in admin's role opens a kind of field (the contract's FIELD_PERMISSIONS: the
 * identifiable fields, a participant's device), for what is about fields inside a route's answer or
 * body rather than the route itself. Nobody signed in opens none.
 */
export function useFieldAccess(): (field: FieldPermission) => boolean {
  const role = useSession()?.role;
  return useCallback(
    (field: FieldPermission) => role !== undefined && can(role, FIELD_PERMISSIONS[field]),
    [role],
  );
}

/**
 * Ends the session on the server (and at the identity provider, for a session signed in there), leaves the console and forgets every answer held in memory, so
 * that nothing of the console can be shown again (the Back button included) without signing in.
 */
export function useLogout(): () => Promise<void> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(async () => {
    let endSessionUrl: string | undefined;
    try {
      endSessionUrl = (await call(apiRoutes.auth.logout)).end_session_url;
    } catch (error) {
      // Already signed out (or the server is away): leaving the console is still right.
      if (!(error instanceof ApiError)) throw error;
    }
    await navigate('/login', { replace: true });
    queryClient.clear();
    // Signed in through the organisation's identity provider: its session ends too, and it sends
    // the browser back to the sign-in page.
    if (endSessionUrl) window.location.assign(endSessionUrl);
  }, [queryClient, navigate]);
}
