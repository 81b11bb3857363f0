import {
  THUMBNAIL_PROCESSING,
  type CreateVideoSetBody,
  type UpdateVideoSetBody,
  type UploadSettings,
  type Video,
  type VideoSet,
  type VideoSetDeleted,
  type VideoDeletionImpact,
  type VideoSetDeletionImpact,
  type VideoThumbs,
} from '@pathway/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '../../lib/api';

const VIDEO_SETS_KEY = ['video-sets'] as const;

export const videoSetsQuery = queryOptions({
  queryKey: VIDEO_SETS_KEY,
  queryFn: () => apiJson<VideoSet[]>('/api/videoset'),
});

export const videoSetQuery = (id: number) =>
  queryOptions({
    queryKey: [...VIDEO_SETS_KEY, id],
    queryFn: () => apiJson<VideoSet>(`/api/videoset/${id}`),
  });

/** Refetched every few seconds while a thumbnail is being made, so it appears by itself. */
const POLL_MS = 3000;
const isProcessing = (url: string) => url === THUMBNAIL_PROCESSING;

export const setVideosQuery = (id: number) =>
  queryOptions({
    queryKey: [...VIDEO_SETS_KEY, id, 'videos'],
    queryFn: () => apiJson<Video[]>(`/api/videoset/${id}/videos`),
    refetchInterval: (query) =>
      query.state.data?.some((v) => isProcessing(v.video_thumbnail_url)) ? POLL_MS : false,
  });

/** `GET /api/video/thumbs/{id}`: the thumbnail status the reload button asks for. */
export const setThumbsQuery = (id: number) =>
  queryOptions({
    queryKey: [...VIDEO_SETS_KEY, id, 'thumbs'],
    queryFn: () => apiJson<VideoThumbs>(`/api/video/thumbs/${id}`),
    refetchInterval: (query) =>
      Object.values(query.state.data ?? {}).some((week) =>
        week.some((entry) => isProcessing(entry.video_thumbnail_url)),
      )
        ? POLL_MS
        : false,
  });

export const deletionImpactQuery = (id: number) =>
  queryOptions({
    queryKey: [...VIDEO_SETS_KEY, id, 'deletion-impact'],
    queryFn: () => apiJson<VideoSetDeletionImpact>(`/api/videoset/${id}/deletion-impact`),
    staleTime: 0,
  });

/** Who stands on a video's day, and where deleting it moves them (for the delete warning). */
export const videoDeletionImpactQuery = (videoId: number) =>
  queryOptions({
    queryKey: [...VIDEO_SETS_KEY, 'video', videoId, 'deletion-impact'],
    queryFn: () => apiJson<VideoDeletionImpact>(`/api/video/${videoId}/deletion-impact`),
  });

export const uploadSettingsQuery = queryOptions({
  queryKey: ['upload-settings'],
  queryFn: () => apiJson<UploadSettings>('/api/video/upload-settings'),
  staleTime: Infinity,
});

function useRefreshSets() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: VIDEO_SETS_KEY });
}

export function useCreateVideoSet() {
  const refresh = useRefreshSets();
  return useMutation({
    mutationFn: (body: CreateVideoSetBody) => apiJson<VideoSet>('/api/videoset', { method: 'POST', body }),
    onSuccess: refresh,
  });
}

export function useRenameVideoSet() {
  const refresh = useRefreshSets();
  return useMutation({
    mutationFn: ({ id, ...body }: UpdateVideoSetBody & { id: number }) =>
      apiJson<VideoSet>(`/api/videoset/${id}`, { method: 'PATCH', body }),
    onSuccess: refresh,
  });
}

export function useDeleteVideoSet() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiJson<VideoSetDeleted>(`/api/videoset/${id}`, { method: 'DELETE' }),
    onSuccess: (_answer, id) => {
      queryClient.removeQueries({ queryKey: [...VIDEO_SETS_KEY, id] });
      return queryClient.invalidateQueries({ queryKey: VIDEO_SETS_KEY });
    },
  });
}

/** After a save: ask for the thumbnail (spec §4); the server also queued it with the save. */
function requestThumbnail(video: Video) {
  const query = new URLSearchParams({ videoUrl: video.file_location_path, videoId: String(video.video_id) });
  return apiJson<{ message: string }>(`/thumbs?${query}`);
}

function useRefreshSetVideos(setId: number) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: [...VIDEO_SETS_KEY, setId, 'videos'] }),
      queryClient.invalidateQueries({ queryKey: [...VIDEO_SETS_KEY, setId, 'thumbs'] }),
    ]);
}

export interface NewVideo {
  title: string;
  description: string;
  file_location_path: string;
  file_size: number;
  week_number: number;
  day_number: number;
}

export function useAddVideo(setId: number) {
  const refresh = useRefreshSetVideos(setId);
  return useMutation({
    mutationFn: async (video: NewVideo) => {
      const saved = await apiJson<Video>('/api/video', {
        method: 'POST',
        body: {
          ...video,
          fitness_video_set_id: setId,
          video_thumbnail_url: THUMBNAIL_PROCESSING,
          video_length: '0',
        },
      });
      await requestThumbnail(saved).catch(() => undefined);
      return saved;
    },
    onSuccess: refresh,
  });
}

export interface VideoChanges {
  title: string;
  description: string;
  /** A new upload that replaces the file. */
  replacement?: { file_location_path: string; file_size: number };
}

export function useUpdateVideo(setId: number) {
  const refresh = useRefreshSetVideos(setId);
  return useMutation({
    mutationFn: async ({ videoId, changes }: { videoId: number; changes: VideoChanges }) => {
      const saved = await apiJson<Video>(`/api/video/${videoId}`, {
        method: 'PATCH',
        body: {
          title: changes.title,
          description: changes.description,
          ...(changes.replacement && { ...changes.replacement, video_thumbnail_url: THUMBNAIL_PROCESSING }),
        },
      });
      if (changes.replacement) await requestThumbnail(saved).catch(() => undefined);
      return saved;
    },
    onSuccess: refresh,
  });
}

export function useDeleteVideo(setId: number) {
  const refresh = useRefreshSetVideos(setId);
  return useMutation({
    mutationFn: (videoId: number) =>
      apiJson<{ message: string }>(`/api/video/${videoId}`, { method: 'DELETE' }),
    onSuccess: refresh,
  });
}

/** The reload button: the set's thumbnail status again, and a new try for one that failed. */
export function useReloadThumbnail(setId: number) {
  const refresh = useRefreshSetVideos(setId);
  return useMutation({
    mutationFn: async (video: Video) => {
      if (!isProcessing(video.video_thumbnail_url)) await requestThumbnail(video);
    },
    onSettled: refresh,
  });
}
