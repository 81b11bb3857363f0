import type {
  AdherenceState,
  AuthorisedDevice,
  CreateParticipantBody,
  ParticipantPage,
  ParticipantSort,
  ParticipantView,
  PushNotificationBody,
  Referral,
  UpdateParticipantBody,
} from '@pathway/contract';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '../../lib/api';

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
