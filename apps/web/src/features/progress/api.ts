import { apiRoutes, type ParticipationProgress, type Video, type VideoSet } from '@pathway/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../lib/api';
import { dashboardKeys, participantKeys, progressKeys, videoSetKeys } from '../../lib/queryKeys';

/** The set fields the progress tabs need (GET /api/videoset answers these and more). */
export type VideoSetChoice = Pick<
  VideoSet,
  'fitness_video_set_id' | 'set_name' | 'number_of_weeks' | 'videos_in_week'
>;

export type SetVideo = Pick<
  Video,
  'video_id' | 'title' | 'week_number' | 'day_number' | 'file_location_path'
>;

export const progressSummaryQuery = (participantId: number, videoSetId: number) =>
  queryOptions({
    queryKey: progressKeys.summary(participantId, videoSetId),
    queryFn: () => call(apiRoutes.progress.summary, { params: { videoSetId, participantId } }),
  });

export const pushMessagesQuery = (participantId: number) =>
  queryOptions({
    queryKey: progressKeys.pushMessages(participantId),
    queryFn: () => call(apiRoutes.pushMessages.ofParticipant, { params: { id: participantId } }),
  });

// The same keys and calls as the Video sets screens, so one cache entry serves both.
export const videoSetChoicesQuery = queryOptions({
  queryKey: videoSetKeys.all,
  queryFn: () => call(apiRoutes.videoSets.list),
});

export const setVideosQuery = (videoSetId: number) =>
  queryOptions({
    queryKey: videoSetKeys.videos(videoSetId),
    queryFn: () => call(apiRoutes.videoSets.videos, { params: { id: videoSetId } }),
  });

/** After any change of progress: this participant's tabs, the grid's tracking colours, the dashboard. */
function useRefresh(participantId: number) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: progressKeys.of(participantId) }),
      queryClient.invalidateQueries({ queryKey: participantKeys.all }),
      queryClient.invalidateQueries({ queryKey: dashboardKeys.all }),
    ]);
}

/** Chooses a set: POST for a participant without progress, PATCH (a reset) for one with. */
export function useChooseVideoSet(participantId: number) {
  const refresh = useRefresh(participantId);
  return useMutation({
    mutationFn: ({ progress, videoSetId }: { progress: ParticipationProgress | null; videoSetId: number }) =>
      progress
        ? call(apiRoutes.progress.update, {
            params: { id: progress.fitness_participation_progress_id },
            body: { fitness_video_set_id: videoSetId, current_week: 1, current_day: 1 },
          })
        : call(apiRoutes.progress.create, {
            body: { participant_id: participantId, fitness_video_set_id: videoSetId },
          }),
    onSuccess: refresh,
  });
}

export function useMoveProgress(participantId: number) {
  const refresh = useRefresh(participantId);
  return useMutation({
    mutationFn: ({
      direction,
      week,
      day,
    }: {
      direction: 'forward' | 'backward';
      week: number;
      day: number;
    }) =>
      direction === 'forward'
        ? call(apiRoutes.progress.moveForward, { params: { id: participantId }, body: { week, day } })
        : call(apiRoutes.progress.moveBackward, { params: { id: participantId }, body: { week, day } }),
    onSuccess: refresh,
  });
}

export function useProgressOneDay(participantId: number) {
  const refresh = useRefresh(participantId);
  return useMutation({
    mutationFn: () => call(apiRoutes.progress.forwardOneDay, { params: { id: participantId } }),
    onSuccess: refresh,
  });
}

export function usePurgeCache(participantId: number) {
  const refresh = useRefresh(participantId);
  return useMutation({
    mutationFn: () =>
      call(apiRoutes.participants.update, { params: { id: participantId }, body: { purge_cache: true } }),
    onSuccess: refresh,
  });
}

export function useReextractThumbnail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (video: SetVideo) =>
      call(apiRoutes.videos.reextractThumbnail, {
        body: { video_id: video.video_id, file_location_path: video.file_location_path },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: videoSetKeys.all }),
  });
}
