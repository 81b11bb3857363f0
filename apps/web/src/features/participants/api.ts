import {
  EXPORT_TOTAL_HEADER,
  type AdherenceState,
  type AuthorisedDevice,
  type CreateParticipantBody,
  type ParticipantPage,
  type ParticipantSort,
  type ParticipantView,
  type PushNotificationBody,
  type Referral,
  type UpdateParticipantBody,
} from '@pathway/contract';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson, apiResponse } from '../../lib/api';

const PARTICIPANTS_KEY = ['participants'] as const;
const AVAILABLE_DEVICES_KEY = ['authorised-devices', 'available'] as const;

export interface ParticipantListParams {
  page: number;
  perPage: number;
  state?: AdherenceState;
  sort: ParticipantSort;
  order: 'asc' | 'desc';
  q?: string;
  /** nextCursor of the page before, when known: the server then reads the page by keyset. */
  after?: string;
}

export function participantListQuery(params: ParticipantListParams) {
  const search = new URLSearchParams({
    page: String(params.page),
    perPage: String(params.perPage),
    sort: params.sort,
    order: params.order,
  });
  if (params.state) search.set('state', params.state);
  if (params.q) search.set('q', params.q);
  if (params.after) search.set('after', params.after);
  return queryOptions({
    queryKey: [...PARTICIPANTS_KEY, 'list', { ...params, after: undefined }],
    queryFn: ({ signal }) => apiJson<ParticipantPage>(`/api/participant?${search}`, { signal }),
    // Keep the rows shown while the next page loads, so the grid does not flash empty.
    placeholderData: keepPreviousData,
  });
}

export type ParticipantExportParams = Pick<ParticipantListParams, 'state' | 'sort' | 'order' | 'q'>;

/**
 * The whole list as the server streams it (GET /api/participant/export), as filtered and sorted;
 * `onProgress` hears the rows received so far and the rows to come, as they arrive.
 */
export async function exportParticipants(
  params: ParticipantExportParams,
  onProgress: (received: number, total: number | null) => void,
  signal?: AbortSignal,
): Promise<{ blob: Blob; fileName: string }> {
  const search = new URLSearchParams({ sort: params.sort, order: params.order });
  if (params.state) search.set('state', params.state);
  if (params.q) search.set('q', params.q);
  const response = await apiResponse(`/api/participant/export?${search}`, { signal }, 'text/csv');
  const totalHeader = response.headers.get(EXPORT_TOTAL_HEADER);
  const total = totalHeader === null ? null : Number(totalHeader);
  const fileName =
    /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'participants.csv';
  const chunks: Uint8Array[] = [];
  let lines = 0;
  const reader = response.body!.getReader();
  onProgress(0, total);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    // Rows end in CRLF and a cell's own line breaks are inside quotes as CRLF too rarely to matter
    // for a progress bar; the header line is not a row.
    for (const byte of value) if (byte === 10) lines++;
    onProgress(Math.max(0, lines - 1), total);
  }
  return { blob: new Blob(chunks as BlobPart[], { type: 'text/csv;charset=utf-8' }), fileName };
}

export function participantQuery(id: number) {
  return queryOptions({
    queryKey: [...PARTICIPANTS_KEY, 'one', id],
    queryFn: ({ signal }) => apiJson<ParticipantView>(`/api/participant/${id}`, { signal }),
  });
}

/** Full access only; the read is recorded in the audit trail, so it is made only when asked for. */
export function referralQuery(id: number) {
  return queryOptions({
    queryKey: [...PARTICIPANTS_KEY, 'referral', id],
    queryFn: ({ signal }) => apiJson<Referral>(`/api/participant/${id}/referral`, { signal }),
    staleTime: 0,
  });
}

export const availableDevicesQuery = queryOptions({
  queryKey: AVAILABLE_DEVICES_KEY,
  queryFn: ({ signal }) => apiJson<AuthorisedDevice[]>('/api/authorizeddevices/available', { signal }),
  staleTime: 0,
});

/** After any change: every participant answer and the list of free devices may have changed. */
function useRefresh() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: PARTICIPANTS_KEY }),
      queryClient.invalidateQueries({ queryKey: ['authorised-devices'] }),
    ]);
}

export function useCreateParticipant() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (body: CreateParticipantBody) =>
      apiJson<ParticipantView>('/api/participant', { method: 'POST', body }),
    onSuccess: refresh,
  });
}

export function useUpdateParticipant() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, changes }: { id: number; changes: UpdateParticipantBody }) =>
      apiJson<ParticipantView>(`/api/participant/${id}`, { method: 'PATCH', body: changes }),
    onSuccess: refresh,
  });
}

export function useDeleteParticipant() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: number) => apiJson<{ message: string }>(`/api/participant/${id}`, { method: 'DELETE' }),
    onSuccess: refresh,
  });
}

export function useMessageParticipant() {
  return useMutation({
    mutationFn: (body: PushNotificationBody) =>
      apiJson<{ message: string }>('/api/pushNotifications', { method: 'POST', body }),
  });
}
