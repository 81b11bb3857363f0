import type { RetentionPolicy } from '@pathway/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiJson } from './api';

/** How long logs and audit records are kept; shared by the Server Logs and Audit trail screens. */
export const retentionQuery = queryOptions({
  queryKey: ['retention'],
  queryFn: () => apiJson<RetentionPolicy>('/api/retention'),
  staleTime: Infinity,
});
