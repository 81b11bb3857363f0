import type { QueryClient } from '@tanstack/react-query';
import { Suspense } from 'react';
import { SSO_STEP_UP_DONE_PATH, type SessionInfo } from '@pathway/contract';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { PageErrorBoundary } from '../components/PageErrorBoundary';
import { PageLoading } from '../components/PageLoading';
import { LoginRoute } from '../features/auth/LoginRoute';
import { PageAccessGate, requireSession, sessionChecks, skipLoginWhenSignedIn } from './guards';
import type { RouteHandle } from './layout/ConsoleLayout';
import { NotFoundPage } from './pages/NotFoundPage';
import { RouteErrorPage } from './pages/RouteErrorPage';
import { consoleRoutes, logViewerRoute, type ConsoleRoute } from './routes';

function pageElement(route: ConsoleRoute) {
  const Page = route.page;
  return (
    <PageAccessGate route={route.route}>
      <Page />
    </PageAccessGate>
  );
}

/** `firstSession`: the server's answer already on its way as the console starts (guards.tsx). */
export function appRoutes(
  queryClient: QueryClient,
  firstSession?: Promise<SessionInfo | null>,
): RouteObject[] {
  const check = sessionChecks(queryClient, firstSession);
  const guard = requireSession(queryClient, check);
  return [
    {
      errorElement: <RouteErrorPage />,
      hydrateFallbackElement: <PageLoading />,
      children: [
        {
          path: '/login',
          loader: skipLoginWhenSignedIn(check),
          handle: { title: 'Sign in' } satisfies RouteHandle,
          element: <LoginRoute />,
        },
        {
          path: '/',
          loader: guard,
          // Ask the server again on every navigation, so Back after logout finds no session.
          shouldRevalidate: () => true,
          // The signed-in shell (sidebar, top bar, menus) loads with the session check, not with
          // the sign-in page, which stays as small as it can.
          lazy: async () => ({ Component: (await import('./layout/ConsoleLayout')).ConsoleLayout }),
          children: [
            { index: true, element: <Navigate to="/dashboard" replace /> },
            ...consoleRoutes.map(
              (route): RouteObject => ({
                path: route.path,
                handle: { route, title: route.title } satisfies RouteHandle,
                // The page's chunk loads while the session is checked, not after it, and the page
                // is shown once it has: a page that suspended instead showed a spinner, and React
                // holds what a Suspense reveals until 300 ms after its fallback appeared
                // (lazyNamed.ts). A chunk that fails to load is the page's own error to show.
                loader: async () => {
                  await route.page.preload().catch(() => undefined);
                  return null;
                },
                element: pageElement(route),
              }),
            ),
            {
              path: '*',
              handle: { title: 'Page not found' } satisfies RouteHandle,
              element: <NotFoundPage />,
            },
          ],
        },
        {
          // The window a step-up through the identity provider ends in: it reports and closes.
          path: SSO_STEP_UP_DONE_PATH,
          handle: { title: 'Confirm it is you' } satisfies RouteHandle,
          lazy: async () => ({ Component: (await import('../features/auth/StepUpDonePage')).StepUpDonePage }),
        },
        {
          // A popup window of its own: the same guard, no sidebar.
          path: logViewerRoute.path,
          loader: guard,
          shouldRevalidate: () => true,
          element: (
            <PageErrorBoundary>
              <Suspense fallback={<PageLoading />}>{pageElement(logViewerRoute)}</Suspense>
            </PageErrorBoundary>
          ),
        },
      ],
    },
  ];
}

export function createAppRouter(queryClient: QueryClient, firstSession?: Promise<SessionInfo | null>) {
  return createBrowserRouter(appRoutes(queryClient, firstSession));
}
