import { apiRoutes, type AuditAction } from '@pathway/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call, callBlob } from '../../lib/api';
import { auditKeys } from '../../lib/queryKeys';

/** `?action=` when one kind is chosen; every kind otherwise. */
export function auditQuery(page: number, perPage: number, action: AuditAction | null = null) {
  return queryOptions({
    queryKey: auditKeys.page(page, perPage, action),
    queryFn: ({ signal }) =>
      call(apiRoutes.audit.list, { query: { page, perPage, action: action ?? undefined }, signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** The CSV of the kind shown (or of every kind). */
export function fetchAuditExport(action: AuditAction | null = null): Promise<Blob> {
  return callBlob(apiRoutes.audit.export, { query: { action: action ?? undefined } });
}
