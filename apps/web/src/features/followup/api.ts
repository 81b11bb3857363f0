import { apiRoutes, type CreateContactBody, type FollowupReason } from '@pathway/contract';
import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { call } from '../../lib/api';
import { dashboardKeys, followupKeys } from '../../lib/queryKeys';

export interface FollowupListParams {
  page: number;
  perPage: number;
  reason?: FollowupReason;
  /** One site of those the admin sees; absent: every one. */
  site_id?: number;
}

export function followupListQuery({ page, perPage, reason, site_id }: FollowupListParams) {
  return queryOptions({
    queryKey: followupKeys.list({ page, perPage, reason, site_id }),
    queryFn: ({ signal }) =>
      call(apiRoutes.followup.list, { query: { page, perPage, reason, site_id }, signal }),
    placeholderData: keepPreviousData,
  });
}

export const followupCountsQuery = (siteId?: number) =>
  queryOptions({
    queryKey: followupKeys.counts(siteId),
    queryFn: ({ signal }) => call(apiRoutes.followup.counts, { query: { site_id: siteId }, signal }),
  });

/** The worklist as its menu entry opens it: every reason, the first 25 rows. */
export const FIRST_WORKLIST_PAGE = { page: 1, perPage: 25 } as const satisfies FollowupListParams;

/** The worklist's first page and its counts, fetched ahead of a visit (app/prefetch.ts). */
export function prefetchFollowup(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    queryClient.prefetchQuery(followupListQuery(FIRST_WORKLIST_PAGE)),
    queryClient.prefetchQuery(followupCountsQuery()),
  ]);
}

export const contactsQuery = (participantId: number) =>
  queryOptions({
    queryKey: followupKeys.contacts(participantId),
    queryFn: ({ signal }) => call(apiRoutes.followup.contacts, { params: { id: participantId }, signal }),
  });

export const messagesQuery = (participantId: number, page: number, perPage: number) =>
  queryOptions({
    queryKey: followupKeys.messages(participantId, page, perPage),
    queryFn: ({ signal }) =>
      call(apiRoutes.followup.messages, { params: { id: participantId }, query: { page, perPage }, signal }),
    placeholderData: keepPreviousData,
  });

/** Records a contact; the worklist, its counts and the participant's log are read again. */
export function useRecordContact(participantId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateContactBody) =>
      call(apiRoutes.followup.recordContact, { params: { id: participantId }, body }),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: followupKeys.all }),
        queryClient.invalidateQueries({ queryKey: dashboardKeys.all }),
      ]);
    },
  });
}
