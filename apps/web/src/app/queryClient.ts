import { hashKey, MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { isApiError, isSessionEnded } from '../lib/api';
import { sessionKeys } from '../lib/queryKeys';

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: { handlesUnauthorized?: boolean };
  }
}

const sessionHash = hashKey(sessionKeys.all);

/**
 * One cache for the console. The session has ended (idle timeout, deleted account, logout in
 * another tab, a password change) when any call answers 401 or the session check answers that
 * there is none: `onSessionEnded` then takes the user to sign in again. Both are seen here, in
 * one place, so that no component has to navigate on its own.
 */
export function createQueryClient({ onSessionEnded }: { onSessionEnded: () => void }): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error) => {
        if (isSessionEnded(error)) onSessionEnded();
      },
      onSuccess: (data, query) => {
        if (data === null && query.queryHash === sessionHash) onSessionEnded();
      },
    }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => {
        if (isSessionEnded(error) && !mutation.meta?.handlesUnauthorized) onSessionEnded();
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        // A page seen before shows its answers at once when it is opened again, while they are
        // read afresh; the default five minutes would drop them between two visits of a working day.
        gcTime: 30 * 60_000,
        // A 4xx will not get better by asking again; a dropped connection might.
        retry: (failures, error) => failures < 2 && isApiError(error, 0),
      },
    },
  });
}
