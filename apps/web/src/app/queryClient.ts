import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { isApiError } from '../lib/api';

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: { handlesUnauthorized?: boolean };
  }
}

/**
 * One cache for the console. A 401 from any call means the session has ended (idle timeout,
 * deleted account, logout in another tab): `onUnauthorized` takes the user to sign in again.
 */
export function createQueryClient({ onUnauthorized }: { onUnauthorized: () => void }): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error) => {
        if (isApiError(error, 401)) onUnauthorized();
      },
    }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => {
        if (isApiError(error, 401) && !mutation.meta?.handlesUnauthorized) onUnauthorized();
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        // A 4xx will not get better by asking again; a dropped connection might.
        retry: (failures, error) => failures < 2 && isApiError(error, 0),
      },
    },
  });
}
