import { apiRoutes } from '@pathway/contract';
import { queryOptions } from '@tanstack/react-query';
import { call, callBlob, callText } from '../../lib/api';
import { saveBlob } from '../../lib/download';
import { logKeys } from '../../lib/queryKeys';

export const logListQuery = queryOptions({
  queryKey: logKeys.all,
  queryFn: () => call(apiRoutes.logs.list),
});

export function logContentQuery(fileName: string) {
  return queryOptions({
    queryKey: logKeys.file(fileName),
    // Asked as a view, which the audit trail records apart from a download.
    queryFn: () => callText(apiRoutes.logs.read, { params: { fileName }, query: { view: 'true' } }),
    // A log grows while it is read: always show what is there now.
    staleTime: 0,
  });
}

/** Fetches first, so that a refusal is shown as a message rather than saved as the file. */
export async function downloadLog(fileName: string): Promise<void> {
  saveBlob(await callBlob(apiRoutes.logs.read, { params: { fileName } }), fileName);
}
