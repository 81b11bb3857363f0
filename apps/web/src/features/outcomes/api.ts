import {
  apiRoutes,
  type AmendAssessmentBody,
  type AssessmentSchedule,
  type CreateMeasureBody,
  type RecordAssessmentBody,
  type UpdateMeasureBody,
} from '@pathway/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../lib/api';
import { dashboardKeys, followupKeys, outcomeKeys } from '../../lib/queryKeys';

export const measuresQuery = queryOptions({
  queryKey: outcomeKeys.measures(),
  queryFn: ({ signal }) => call(apiRoutes.outcomes.measures, { signal }),
});

export const scheduleQuery = (videoSetId: number) =>
  queryOptions({
    queryKey: outcomeKeys.schedule(videoSetId),
    queryFn: ({ signal }) => call(apiRoutes.outcomes.schedule, { params: { id: videoSetId }, signal }),
  });

export const resultsQuery = (participantId: number) =>
  queryOptions({
    queryKey: outcomeKeys.results(participantId),
    queryFn: ({ signal }) => call(apiRoutes.outcomes.results, { params: { id: participantId }, signal }),
  });

export const participantOutcomesQuery = (participantId: number) =>
  queryOptions({
    queryKey: outcomeKeys.due(participantId),
    queryFn: ({ signal }) =>
      call(apiRoutes.outcomes.ofParticipant, { params: { id: participantId }, signal }),
  });

/** A result changes what is due (the worklist, its counts) and the participant's comparison. */
function useAfterResult(participantId: number) {
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: outcomeKeys.of(participantId) }),
      queryClient.invalidateQueries({ queryKey: followupKeys.all }),
      queryClient.invalidateQueries({ queryKey: dashboardKeys.all }),
      queryClient.invalidateQueries({ queryKey: [...outcomeKeys.all, 'report'] }),
      queryClient.invalidateQueries({ queryKey: outcomeKeys.measures() }),
    ]);
  };
}

export function useRecordResult(participantId: number) {
  const after = useAfterResult(participantId);
  return useMutation({
    mutationFn: (body: RecordAssessmentBody) =>
      call(apiRoutes.outcomes.record, { params: { id: participantId }, body }),
    onSuccess: after,
  });
}

export function useAmendResult(participantId: number, assessmentId: number) {
  const after = useAfterResult(participantId);
  return useMutation({
    mutationFn: (body: AmendAssessmentBody) =>
      call(apiRoutes.outcomes.amend, { params: { id: participantId, assessment_id: assessmentId }, body }),
    onSuccess: after,
  });
}

export function useCreateMeasure() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateMeasureBody) => call(apiRoutes.outcomes.createMeasure, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: outcomeKeys.measures() }),
  });
}

export function useUpdateMeasure(measureId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateMeasureBody) =>
      call(apiRoutes.outcomes.updateMeasure, { params: { id: measureId }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: outcomeKeys.all }),
  });
}

export function useSaveSchedule(videoSetId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AssessmentSchedule) =>
      call(apiRoutes.outcomes.saveSchedule, { params: { id: videoSetId }, body }),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: outcomeKeys.all }),
        queryClient.invalidateQueries({ queryKey: followupKeys.all }),
      ]);
    },
  });
}
