import { isCancelledError, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { redirect } from 'react-router';
import type { RouteRef } from '@pathway/contract';
import { sessionQuery, useCanCall, useSession } from '../lib/session';
import { NotAllowedPage } from './pages/NotAllowedPage';

/**
 * Asks the server, never the cookie (it is HttpOnly), and never trusts an answer held in memory.
 * A check cancelled on its way is asked again: the console clears what it holds when a call
 * answers 401 (the session ended elsewhere), which cancels a check a navigation is waiting for,
 * and that navigation then showed the error page instead of going to sign in.
 */
async function currentSession(queryClient: QueryClient) {
  const ask = () => queryClient.fetchQuery({ ...sessionQuery, staleTime: 0 });
  try {
    return await ask();
  } catch (error) {
    if (isCancelledError(error)) return ask();
    throw error;
  }
}

/**
 * The route guard of the console: it runs before every navigation into the console (the Back
 * button included), so that after logout or once the session has ended no page is shown.
 */
export function requireSession(queryClient: QueryClient) {
  return async () => {
    if (!(await currentSession(queryClient))) throw redirect('/login');
    return null;
  };
}

/** Someone already signed in who opens /login goes on to the console. */
export function skipLoginWhenSignedIn(queryClient: QueryClient) {
  return async () => {
    const session = await currentSession(queryClient).catch(() => null);
    if (session) throw redirect('/dashboard');
    return null;
  };
}

/**
 * Mirrors the server's permissions: an admin whose role may not call the route a page loads, and
 * who opens it by its address, is told so (the server refuses the page's calls anyway).
 */
export function PageAccessGate({ route, children }: { route: RouteRef; children: ReactNode }) {
  const session = useSession();
  const canCall = useCanCall();
  if (!session) return null;
  if (!canCall(route)) return <NotAllowedPage />;
  return children;
}
