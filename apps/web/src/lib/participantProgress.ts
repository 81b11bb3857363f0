import { apiRoutes } from '@pathway/contract';
import { queryOptions } from '@tanstack/react-query';
import { call } from './api';
import { progressKeys } from './queryKeys';

/**
 * A participant's programme (null: none chosen yet). Shared by the progress tabs and the
 * participant's record, which offers the Progress and Advanced settings tabs only when there is
 * one (spec §2) and the discharge as completed once it is finished.
 */
export const participantProgressQuery = (participantId: number) =>
  queryOptions({
    queryKey: progressKeys.progress(participantId),
    queryFn: () => call(apiRoutes.progress.ofParticipant, { params: { id: participantId } }),
    select: (list) => list[0] ?? null,
  });
