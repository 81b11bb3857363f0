import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ConsoleTheme } from './ConsoleTheme';

/** The theme and the query cache: what every page of the console (and its tests) renders inside. */
export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ConsoleTheme>{children}</ConsoleTheme>
    </QueryClientProvider>
  );
}
