import { apiRoutes } from '@pathway/contract';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../lib/api';
import { dashboardKeys } from '../../lib/queryKeys';

export const dashboardQuery = queryOptions({
  queryKey: dashboardKeys.all,
  queryFn: () => call(apiRoutes.dashboard.get),
  // Views arrive all day from the tablets; the page keeps itself current while it is open.
  refetchInterval: 60_000,
});
