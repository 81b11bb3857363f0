import type { ParticipationProgress, ProgressSummary, PushOutboxEntry } from '@pathway/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api';

/** The set fields the progress tabs need (GET /api/videoset answers more). */
export interface VideoSetChoice {
  fitness_video_set_id: number;
  set_name: string;
  number_of_weeks: number;
  videos_in_week: number;
}

export interface SetVideo {
  video_id: number;
  title: string;
  week_number: number;
  day_number: number;
  file_location_path: string;
}

const progressKey = (participantId: number) => ['participant-progress', participantId] as const;

export const participantProgressQuery = (participantId: number) =>
  queryOptions({
    queryKey: [...progressKey(participantId), 'progress'],
    queryFn: () =>
      apiJson<ParticipationProgress[]>(`/api/participationprogress/participant/${participantId}`),
    select: (list) => list[0] ?? null,
  });

export const progressSummaryQuery = (participantId: number, videoSetId: number) =>
  queryOptions({
    queryKey: [...progressKey(participantId), 'summary', videoSetId],
    queryFn: () =>
      apiJson<ProgressSummary>(
        `/api/participationprogress/summary/${videoSetId}/participant/${participantId}`,
      ),
  });

export const pushMessagesQuery = (participantId: number) =>
  queryOptions({
    queryKey: [...progressKey(participantId), 'push'],
    queryFn: () => apiJson<PushOutboxEntry[]>(`/api/pushNotifications/participant/${participantId}`),
  });

export const videoSetChoicesQuery = queryOptions({
  queryKey: ['video-sets'],
  queryFn: () => apiJson<VideoSetChoice[]>('/api/videoset'),
});

export const setVideosQuery = (videoSetId: number) =>
  queryOptions({
    queryKey: ['video-sets', videoSetId, 'videos'],
    queryFn: () => apiJson<SetVideo[]>(`/api/videoset/${videoSetId}/videos`),
  });

/** After any change of progress: this participant's tabs, the grid's tracking colours, the dashboard. */
function useRefresh(participantId: number) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: progressKey(participantId) }),
      queryClient.invalidateQueries({ queryKey: ['participants'] }),
      queryClient.invalidateQueries({ queryKey: ['dashboard'] }),
    ]);
}

/** Chooses a set: POST for a participant without progress, PATCH (a reset) for one with. */
export function useChooseVideoSet(participantId: number) {
  const refresh = useRefresh(participantId);
  return useMutation({
    mutationFn: ({ progress, videoSetId }: { progress: ParticipationProgress | null; videoSetId: number }) =>
      progress
        ? apiJson<ParticipationProgress>(
            `/api/participationprogress/${progress.fitness_participation_progress_id}`,
            {
              method: 'PATCH',
              body: { fitness_video_set_id: videoSetId, current_week: 1, current_day: 1 },
            },
          )
        : apiJson<ParticipationProgress>('/api/participationprogress', {
            method: 'POST',
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
      apiJson<ParticipationProgress>(`/api/video/progress/${direction}/${participantId}`, {
        method: 'POST',
        body: { week, day },
      }),
    onSuccess: refresh,
  });
}

export function useProgressOneDay(participantId: number) {
  const refresh = useRefresh(participantId);
  return useMutation({
    mutationFn: () =>
      apiJson<{ message: string }>(`/api/participant/${participantId}/progress`, {
        method: 'PATCH',
        body: {},
      }),
    onSuccess: refresh,
  });
}

export function usePurgeCache(participantId: number) {
  const refresh = useRefresh(participantId);
  return useMutation({
    mutationFn: () =>
      apiJson(`/api/participant/${participantId}`, { method: 'PATCH', body: { purge_cache: true } }),
    onSuccess: refresh,
  });
}

export function useReextractThumbnail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (video: SetVideo) =>
      apiJson<{ message: string }>('/api/video/thumbs/reextract', {
        method: 'POST',
        body: { video_id: video.video_id, file_location_path: video.file_location_path },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['video-sets'] }),
  });
}
