import { apiRoutes } from '@pathway/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../lib/api';
import { participantKeys, recordsKeys } from '../../lib/queryKeys';

/** Records due for review (full access); the read is recorded in the audit trail. */
export const recordsDueQuery = queryOptions({
  queryKey: recordsKeys.due(),
  queryFn: ({ signal }) => call(apiRoutes.records.due, { signal }),
  staleTime: 0,
});

export function useDestroyRecords() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (participantIds: number[]) =>
      call(apiRoutes.records.destroy, { body: { participant_ids: participantIds } }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: recordsKeys.all }),
        queryClient.invalidateQueries({ queryKey: participantKeys.all }),
      ]),
  });
}
