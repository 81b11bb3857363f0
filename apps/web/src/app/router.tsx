import type { QueryClient } from '@tanstack/react-query';
import { Suspense } from 'react';
import { SSO_STEP_UP_DONE_PATH } from '@pathway/contract';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { PageErrorBoundary } from '../components/PageErrorBoundary';
import { PageLoading } from '../components/PageLoading';
import { LoginRoute } from '../features/auth/LoginRoute';
import { PageAccessGate, requireSession, skipLoginWhenSignedIn } from './guards';
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

export function appRoutes(queryClient: QueryClient): RouteObject[] {
  const guard = requireSession(queryClient);
  return [
    {
      errorElement: <RouteErrorPage />,
      hydrateFallbackElement: <PageLoading />,
      children: [
        {
          path: '/login',
          loader: skipLoginWhenSignedIn(queryClient),
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
                // The page's chunk loads while the session is checked, not after it.
                loader: () => {
                  route.page.preload().catch(() => undefined);
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

export function createAppRouter(queryClient: QueryClient) {
  return createBrowserRouter(appRoutes(queryClient));
}
