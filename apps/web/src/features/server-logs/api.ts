import { queryOptions } from '@tanstack/react-query';
import { apiBlob, apiJson, apiText } from '../../lib/api';
import { saveBlob } from '../../lib/download';

function logPath(fileName: string) {
  return `/api/logs/download/${encodeURIComponent(fileName)}`;
}

export const logListQuery = queryOptions({
  queryKey: ['server-logs'],
  queryFn: () => apiJson<string[]>('/api/logs/getloglist'),
});

export function logContentQuery(fileName: string) {
  return queryOptions({
    queryKey: ['server-logs', fileName],
    // Asked as a view, which the audit trail records apart from a download.
    queryFn: () => apiText(`${logPath(fileName)}?view=true`),
    // A log grows while it is read: always show what is there now.
    staleTime: 0,
  });
}

/** Fetches first, so that a refusal is shown as a message rather than saved as the file. */
export async function downloadLog(fileName: string): Promise<void> {
  saveBlob(await apiBlob(logPath(fileName)), fileName);
}
