import { apiRoutes } from '@pathway/contract';
import { queryOptions } from '@tanstack/react-query';
import { call } from './api';
import { retentionKeys } from './queryKeys';

/** How long logs and audit records are kept; shared by the Server Logs and Audit trail screens. */
export const retentionQuery = queryOptions({
  queryKey: retentionKeys.all,
  queryFn: () => call(apiRoutes.retention.policy),
  staleTime: Infinity,
});
