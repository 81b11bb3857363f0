import type { SessionInfo } from '@pathway/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import { RouterProvider } from 'react-router/dom';
import { leaveForSignIn } from './leaveForSignIn';
import { createQueryClient } from './queryClient';
import { createAppRouter } from './router';

/**
 * The console behind sign-in: its router (with the route guards), its query cache and, lazily,
 * its layout and pages. The entry (main.tsx) loads this chunk once it knows the console is
 * wanted, and calls this once; `session` is the server's answer the entry already has on its way
 * (or the one a sign-in just returned), which the first route guard takes as its check.
 */
export function startConsole(session: Promise<SessionInfo | null>): ReactElement {
  const queryClient = createQueryClient({
    onSessionEnded: () => leaveForSignIn(router, queryClient),
  });
  // The router reads the address now: the entry has already put the console's own there.
  const router = createAppRouter(queryClient, session);
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
}
