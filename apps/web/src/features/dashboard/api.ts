import type { DashboardData } from '@pathway/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiJson } from '../../lib/api';

export const dashboardQuery = queryOptions({
  queryKey: ['dashboard'],
  queryFn: () => apiJson<DashboardData>('/api/dashboard'),
  // Views arrive all day from the tablets; the page keeps itself current while it is open.
  refetchInterval: 60_000,
});
