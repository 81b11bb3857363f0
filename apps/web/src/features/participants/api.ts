import {
  EXPORT_TOTAL_HEADER,
  apiRoutes,
  type AdherenceState,
  type CreateParticipantBody,
  type ParticipantSaved,
  type DischargeBody,
  type ParticipantStatusFilter,
  type ParticipantSort,
  type PushNotificationBody,
  type UpdateParticipantBody,
} from '@pathway/contract';
import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { call, callBlob, callResponse } from '../../lib/api';
import { saveBlob } from '../../lib/download';
import { deviceKeys, participantKeys } from '../../lib/queryKeys';

export interface ParticipantListParams {
  page: number;
  perPage: number;
  state?: AdherenceState;
  /** Active by default (the server's default too). */
  status: ParticipantStatusFilter;
  sort: ParticipantSort;
  order: 'asc' | 'desc';
  q?: string;
  /** nextCursor of the page before, when known: the server then reads the page by keyset. */
  after?: string;
  /** One site of those the admin sees; absent: every one. */
  site_id?: number;
}

export function participantListQuery(params: ParticipantListParams) {
  const { page, perPage, sort, order, state, status, q, after, site_id } = params;
  return queryOptions({
    queryKey: participantKeys.list({ ...params, after: undefined }),
    queryFn: ({ signal }) =>
      call(apiRoutes.participants.list, {
        query: {
          page,
          perPage,
          sort,
          order,
          state,
          status,
          q: q || undefined,
          after: after || undefined,
          site_id,
        },
        signal,
      }),
    // Keep the rows shown while the next page loads, so the grid does not flash empty.
    placeholderData: keepPreviousData,
  });
}

/** The list as its menu entry opens it: the first page of active participants by id, 100 rows (spec §9). */
export const FIRST_LIST_PAGE = {
  page: 1,
  perPage: 100,
  status: 'active',
  sort: 'participant_id',
  order: 'asc',
} as const satisfies ParticipantListParams;

/** The list's first page, fetched ahead of a visit (app/prefetch.ts). */
export function prefetchParticipants(queryClient: QueryClient): Promise<void> {
  return queryClient.prefetchQuery(participantListQuery(FIRST_LIST_PAGE));
}

export type ParticipantExportParams = Pick<
  ParticipantListParams,
  'state' | 'status' | 'sort' | 'order' | 'q' | 'site_id'
>;

/**
 * The whole list as the server streams it (GET /api/participant/export), as filtered and sorted;
 * `onProgress` hears the rows received so far and the rows to come, as they arrive.
 */
export async function exportParticipants(
  params: ParticipantExportParams,
  onProgress: (received: number, total: number | null) => void,
  signal?: AbortSignal,
): Promise<{ blob: Blob; fileName: string }> {
  const { sort, order, state, status, q, site_id } = params;
  const response = await callResponse(apiRoutes.participants.export, 'text/csv', {
    query: { sort, order, state, status, q: q || undefined, site_id },
    signal,
  });
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
    queryKey: participantKeys.detail(id),
    queryFn: ({ signal }) => call(apiRoutes.participants.get, { params: { id }, signal }),
  });
}

/** Full access only; the read is recorded in the audit trail, so it is made only when asked for. */
export function referralQuery(id: number) {
  return queryOptions({
    queryKey: participantKeys.referral(id),
    queryFn: ({ signal }) => call(apiRoutes.participants.referral, { params: { id }, signal }),
    staleTime: 0,
  });
}

export const availableDevicesQuery = queryOptions({
  queryKey: deviceKeys.available(),
  queryFn: ({ signal }) => call(apiRoutes.devices.available, { signal }),
  staleTime: 0,
});

/** After any change: every participant answer and the list of free devices may have changed. */
function useRefresh() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: participantKeys.all }),
      queryClient.invalidateQueries({ queryKey: deviceKeys.all }),
    ]);
}

export function useCreateParticipant() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (body: CreateParticipantBody) =>
      call(apiRoutes.participants.create, { body }) as Promise<ParticipantSaved>,
    onSuccess: refresh,
  });
}

export function useUpdateParticipant() {
  const refresh = useRefresh();
  return useMutation({
    // A staff member's change is answered with the participant (a tablet's purge_cache is not).
    mutationFn: ({ id, changes }: { id: number; changes: UpdateParticipantBody }) =>
      call(apiRoutes.participants.update, { params: { id }, body: changes }) as Promise<ParticipantSaved>,
    onSuccess: refresh,
  });
}

export function useDeleteParticipant() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: number) => call(apiRoutes.participants.remove, { params: { id } }),
    onSuccess: refresh,
  });
}

export function useMessageParticipant() {
  return useMutation({
    mutationFn: (body: PushNotificationBody) => call(apiRoutes.participants.message, { body }),
  });
}

/** Discharge: the participant's answer after it, as the details show it. */
export function useDischargeParticipant() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: DischargeBody }) =>
      call(apiRoutes.participants.discharge, { params: { id }, body }),
    onSuccess: refresh,
  });
}

/** Another site of the participant's organisation; their tablet, programme and history go with them. */
export function useTransferParticipant() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, site_id }: { id: number; site_id: number }) =>
      call(apiRoutes.participants.transfer, { params: { id }, body: { site_id } }),
    onSuccess: refresh,
  });
}

export function useRereferParticipant() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: number) => call(apiRoutes.participants.rerefer, { params: { id } }),
    onSuccess: refresh,
  });
}

/** Subject access: the ZIP of everything held about one participant, saved by the browser. */
export function useDownloadRecord() {
  return useMutation({
    mutationFn: async (id: number) => {
      const blob = await callBlob(apiRoutes.participants.record, { params: { id } });
      const day = new Date().toISOString().slice(0, 10);
      saveBlob(blob, `pathway-participant-${id}-record-${day}.zip`);
    },
  });
}
