import type { AuditAction, AuditPage } from '@pathway/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiBlob, apiJson } from '../../lib/api';

/** `?action=` when one kind is chosen; every kind otherwise. */
function kindParam(action: AuditAction | null): string {
  return action ? `action=${encodeURIComponent(action)}` : '';
}

export function auditQuery(page: number, perPage: number, action: AuditAction | null = null) {
  return queryOptions({
    queryKey: ['audit', page, perPage, action],
    queryFn: ({ signal }) =>
      apiJson<AuditPage>(
        `/api/audit?${[`page=${page}`, `perPage=${perPage}`, kindParam(action)].filter(Boolean).join('&')}`,
        { signal },
      ),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** The CSV of the kind shown (or of every kind). */
export function fetchAuditExport(action: AuditAction | null = null): Promise<Blob> {
  const query = kindParam(action);
  return apiBlob(`/api/audit/export${query ? `?${query}` : ''}`);
}
