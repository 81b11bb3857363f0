import { apiRoutes } from '@pathway/contract';
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { call } from '../../lib/api';
import { dashboardKeys, followupKeys } from '../../lib/queryKeys';

/** The figures of every site the admin sees, or of one. */
export const dashboardQuery = (siteId?: number) =>
  queryOptions({
    queryKey: dashboardKeys.figures(siteId),
    queryFn: () => call(apiRoutes.dashboard.get, { query: { site_id: siteId } }),
    // Views arrive all day from the tablets; the page keeps itself current while it is open.
    refetchInterval: 60_000,
  });

// The "Needs follow-up" card's counts per reason.
export const followupCountsQuery = (siteId?: number) =>
  queryOptions({
    queryKey: followupKeys.counts(siteId),
    queryFn: () => call(apiRoutes.followup.counts, { query: { site_id: siteId } }),
    refetchInterval: 60_000,
  });

/** What the dashboard shows first, fetched ahead of a visit (app/prefetch.ts): figures, no names. */
export function prefetchDashboard(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    queryClient.prefetchQuery(dashboardQuery()),
    queryClient.prefetchQuery(followupCountsQuery()),
  ]);
}
