import { apiRoutes, describeRetention } from '@pathway/contract';
import { queryOptions } from '@tanstack/react-query';
import { call } from './api';
import { retentionKeys } from './queryKeys';

/**
 * How long logs and audit records are kept; shared by the Server Logs and Audit trail screens and
 * the device sign-ins (kept as long as the audit trail).
 */
export const retentionQuery = queryOptions({
  queryKey: retentionKeys.all,
  queryFn: () => call(apiRoutes.retention.policy),
  staleTime: Infinity,
});

/** The sentence after an audit trail's or a sign-in list's description. */
export function auditRecordsKept(days: number): string {
  return ` Records are kept for ${describeRetention(days)}, then removed.`;
}
