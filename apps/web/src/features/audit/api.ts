import type { AuditPage } from '@pathway/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiBlob, apiJson } from '../../lib/api';

export function auditQuery(page: number, perPage: number) {
  return queryOptions({
    queryKey: ['audit', page, perPage],
    queryFn: ({ signal }) => apiJson<AuditPage>(`/api/audit?page=${page}&perPage=${perPage}`, { signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

export function fetchAuditExport(): Promise<Blob> {
  return apiBlob('/api/audit/export');
}
