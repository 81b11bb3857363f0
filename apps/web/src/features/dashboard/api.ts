import { apiRoutes } from '@pathway/contract';
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { call } from '../../lib/api';
import { dashboardKeys, followupKeys } from '../../lib/queryKeys';
import type { CanCall } from '../../lib/session';

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

export const BREAK_GLASS = 'signin.break_glass';

/** The break-glass card's count and latest event (listing the trail is not itself audited). */
export const breakGlassQuery = queryOptions({
  queryKey: dashboardKeys.breakGlass(),
  queryFn: () => call(apiRoutes.audit.list, { query: { action: BREAK_GLASS, page: 1, perPage: 1 } }),
  refetchInterval: 60_000,
});

/**
 * What the dashboard shows first, fetched ahead of a visit (app/prefetch.ts): figures, no names,
 * and the break-glass card for those who see it. Asked for only once its card was drawn, that card
 * held a fresh tab's dashboard 40-50 ms after its figures had arrived (2026-12-07).
 */
export function prefetchDashboard(queryClient: QueryClient, canCall: CanCall): Promise<unknown> {
  return Promise.all([
    queryClient.prefetchQuery(dashboardQuery()),
    queryClient.prefetchQuery(followupCountsQuery()),
    canCall(apiRoutes.audit.list) ? queryClient.prefetchQuery(breakGlassQuery) : undefined,
  ]);
}
