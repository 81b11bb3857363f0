import { isCancelledError, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { redirect, type LoaderFunctionArgs } from 'react-router';
import type { RouteRef, SessionInfo } from '@pathway/contract';
import { SESSION_KEY, sessionQuery, useCanCall, useSession } from '../lib/session';
import { NotAllowedPage } from './pages/NotAllowedPage';
import { fetchPageDataAhead } from './prefetch';

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

/** Who is signed in, as the server answers now. */
export type SessionCheck = () => Promise<SessionInfo | null>;

/**
 * The console's session checks. `firstAnswer` is the server's answer the page already has on its
 * way as the console starts (main.tsx asks while the console's chunk loads, or a sign-in has just
 * returned the session): the first check takes it instead of asking a second time, and every
 * later check asks the server.
 */
export function sessionChecks(
  queryClient: QueryClient,
  firstAnswer?: Promise<SessionInfo | null>,
): SessionCheck {
  let first = firstAnswer;
  return async () => {
    if (!first) return currentSession(queryClient);
    const answer = first;
    first = undefined;
    const session = await answer;
    queryClient.setQueryData(SESSION_KEY, session);
    return session;
  };
}

/**
 * The route guard of the console: it runs before every navigation into the console (the Back
 * button included), so that after logout or once the session has ended no page is shown. Once
 * it knows who is signed in, the page's first data is asked for (app/prefetch.ts) while the page's
 * chunk and the shell still load, instead of after they have run.
 */
export function requireSession(queryClient: QueryClient, check: SessionCheck) {
  return async ({ request }: LoaderFunctionArgs) => {
    const session = await check();
    if (!session) throw redirect('/login');
    fetchPageDataAhead(new URL(request.url).pathname, session, queryClient);
    return null;
  };
}

/** Someone already signed in who opens /login goes on to the console. */
export function skipLoginWhenSignedIn(check: SessionCheck) {
  return async () => {
    const session = await check().catch(() => null);
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
