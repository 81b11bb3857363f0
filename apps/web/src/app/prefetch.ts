import type { SessionInfo } from '@pathway/contract';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import { matchPath } from 'react-router';
import { canCall, useCanCall, type CanCall } from '../lib/session';
import { consoleRoutes, type ConsoleRoute } from './routes';

/**
 * What makes a click feel instant: the page a person is likely to open next is already loaded.
 * While the console is idle, the chunk of every page of the menu the admin may open (and the
 * first data of those whose reading is not audited, such as the dashboard's figures); when a
 * pointer rests on a menu entry, or it is focused or pressed, that page's chunk and first data.
 * Whatever is fetched ahead lands in the query cache under the keys the page asks for, so the page
 * finds it there (or already on its way) instead of asking after it has been drawn.
 */

/** How long a pointer or the focus rests on an entry before its data is read: passing over is not intent. */
const INTENT_MS = 80;

/**
 * Loads a page's chunk and, with `data`, its first data (of the sections the admin may see). A
 * failure is left to the visit itself.
 */
export function preloadRoute(
  route: ConsoleRoute,
  queryClient: QueryClient,
  { data, canCall }: { data: boolean; canCall: CanCall },
): void {
  route.page.preload().catch(() => undefined);
  if (data && route.prefetch) route.prefetch.data(queryClient, canCall).catch(() => undefined);
}

/**
 * The first data of the page at `pathname`, asked for by the route guard once it knows who is
 * signed in (app/guards.tsx): the page asks for the same as soon as it is drawn, and finds it
 * there or on its way. Only data whose reading is not audited (`whenIdle`): the page at an
 * address with its own filters may ask for other data than its sidebar entry's, and an audited
 * read nobody looks at must not appear in the trail. Nothing for a page the admin may not open.
 */
export function fetchPageDataAhead(pathname: string, session: SessionInfo, queryClient: QueryClient): void {
  const route = consoleRoutes.find((r) => matchPath(r.path, pathname));
  if (!route?.prefetch?.whenIdle) return;
  const caller = { role: session.role, systemAdministrator: session.system_administrator };
  const callerCan: CanCall = (r) => canCall(caller, r);
  if (!callerCan(route.route)) return;
  route.prefetch.data(queryClient, callerCan).catch(() => undefined);
}

type IdleHandle = { cancel(): void };

/** After the browser's current work (a frame drawn, input handled); soon at the latest. */
function whenIdle(work: () => void): IdleHandle {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(work, { timeout: 2_000 });
    return { cancel: () => window.cancelIdleCallback(id) };
  }
  const id = window.setTimeout(work, 200);
  return { cancel: () => window.clearTimeout(id) };
}

/**
 * The signed-in shell's idle work: the menu's pages, one at a time, each once the browser is idle
 * again. Nothing on a connection that asks to save data. It begins once the page on screen has its
 * data (no query fetching): the browser is idle while that data is on its way, and a page's chunk
 * parsed and run then delayed the page itself (a fresh tab at /dashboard: ParticipantsPage, 400 KB,
 * ran before the dashboard had drawn its figures).
 */
export function usePrefetchWhenIdle(): void {
  const queryClient = useQueryClient();
  const canCall = useCanCall();
  useEffect(() => {
    const connection = (navigator as Navigator & { connection?: { saveData?: boolean } }).connection;
    if (connection?.saveData) return;
    const queue = consoleRoutes.filter((route) => route.nav && canCall(route.route));
    let handle: IdleHandle | undefined;
    let stopped = false;
    let unsubscribe = () => {};
    const next = () => {
      const route = queue.shift();
      if (!route || stopped) return;
      Promise.all([
        route.page.preload(),
        route.prefetch?.whenIdle ? route.prefetch.data(queryClient, canCall) : undefined,
      ])
        .catch(() => undefined)
        .finally(() => {
          if (!stopped) handle = whenIdle(next);
        });
    };
    const begin = () => {
      if (queryClient.isFetching() > 0) return;
      unsubscribe();
      handle = whenIdle(next);
    };
    unsubscribe = queryClient.getQueryCache().subscribe(begin);
    begin();
    return () => {
      stopped = true;
      unsubscribe();
      handle?.cancel();
    };
  }, [queryClient, canCall]);
}

/**
 * Handlers for a menu entry: its page's chunk as soon as a pointer is over it, its first data once
 * the pointer or the focus has rested there a moment, both at once when it is pressed or touched.
 */
export function usePreloadOnIntent(route: ConsoleRoute) {
  const queryClient = useQueryClient();
  const canCall = useCanCall();
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  return useMemo(() => {
    const now = () => {
      window.clearTimeout(timer.current);
      preloadRoute(route, queryClient, { data: true, canCall });
    };
    const soon = () => {
      route.page.preload().catch(() => undefined);
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(now, INTENT_MS);
    };
    const cancel = () => window.clearTimeout(timer.current);
    return {
      onPointerEnter: soon,
      onPointerLeave: cancel,
      onFocus: soon,
      onBlur: cancel,
      onPointerDown: now,
      onTouchStart: now,
    };
  }, [route, queryClient, canCall]);
}
