import {
  THUMBNAIL_PROCESSING,
  apiRoutes,
  type CreateVideoSetBody,
  type UpdateVideoSetBody,
  type Video,
} from '@pathway/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../lib/api';
import { videoSetKeys } from '../../lib/queryKeys';

export const videoSetsQuery = queryOptions({
  queryKey: videoSetKeys.all,
  queryFn: () => call(apiRoutes.videoSets.list),
});

export const videoSetQuery = (id: number) =>
  queryOptions({
    queryKey: videoSetKeys.detail(id),
    queryFn: () => call(apiRoutes.videoSets.get, { params: { id } }),
  });

/** Refetched every few seconds while a thumbnail is being made, so it appears by itself. */
const POLL_MS = 3000;
const isProcessing = (url: string) => url === THUMBNAIL_PROCESSING;

export const setVideosQuery = (id: number) =>
  queryOptions({
    queryKey: videoSetKeys.videos(id),
    queryFn: () => call(apiRoutes.videoSets.videos, { params: { id } }),
    refetchInterval: (query) =>
      query.state.data?.some((v) => isProcessing(v.video_thumbnail_url)) ? POLL_MS : false,
  });

/**
 * The set's thumbnails while one is being made: asked for every quarter of a second at first (a
 * thumbnail is usually ready within a second or two of saving, and appears as soon as it is),
 * then every few seconds.
 */
const FAST_POLL_MS = 250;
const FAST_POLL_FOR_MS = 20_000;
const processingSince = new WeakMap<object, number>();

/** `GET /api/video/thumbs/{id}`: the thumbnail status the reload button asks for. */
export const setThumbsQuery = (id: number) =>
  queryOptions({
    queryKey: videoSetKeys.thumbs(id),
    queryFn: () => call(apiRoutes.videos.thumbsOfSet, { params: { videoSetId: id } }),
    refetchInterval: (query) => {
      const processing = Object.values(query.state.data ?? {}).some((week) =>
        week.some((entry) => isProcessing(entry.video_thumbnail_url)),
      );
      if (!processing) {
        processingSince.delete(query);
        return false;
      }
      const since = processingSince.get(query) ?? Date.now();
      processingSince.set(query, since);
      return Date.now() - since < FAST_POLL_FOR_MS ? FAST_POLL_MS : POLL_MS;
    },
  });

export const deletionImpactQuery = (id: number) =>
  queryOptions({
    queryKey: videoSetKeys.deletionImpact(id),
    queryFn: () => call(apiRoutes.videoSets.deletionImpact, { params: { id } }),
    staleTime: 0,
  });

/** Who stands on a video's day, and where deleting it moves them (for the delete warning). */
export const videoDeletionImpactQuery = (videoId: number) =>
  queryOptions({
    queryKey: videoSetKeys.videoDeletionImpact(videoId),
    queryFn: () => call(apiRoutes.videos.deletionImpact, { params: { video_id: videoId } }),
  });

export const uploadSettingsQuery = queryOptions({
  queryKey: videoSetKeys.uploadSettings,
  queryFn: () => call(apiRoutes.videos.uploadSettings),
  staleTime: Infinity,
});

function useRefreshSets() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: videoSetKeys.all });
}

export function useCreateVideoSet() {
  const refresh = useRefreshSets();
  return useMutation({
    mutationFn: (body: CreateVideoSetBody) => call(apiRoutes.videoSets.create, { body }),
    onSuccess: refresh,
  });
}

export function useRenameVideoSet() {
  const refresh = useRefreshSets();
  return useMutation({
    mutationFn: ({ id, ...body }: UpdateVideoSetBody & { id: number }) =>
      call(apiRoutes.videoSets.rename, { params: { id }, body }),
    onSuccess: refresh,
  });
}

export function useDeleteVideoSet() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(apiRoutes.videoSets.remove, { params: { id } }),
    onSuccess: (_answer, id) => {
      queryClient.removeQueries({ queryKey: videoSetKeys.detail(id) });
      return queryClient.invalidateQueries({ queryKey: videoSetKeys.all });
    },
  });
}

/** After a save: ask for the thumbnail (spec §4); the server also queued it with the save. */
function requestThumbnail(video: Video) {
  return call(apiRoutes.videos.requestThumbnail, {
    query: { videoUrl: video.file_location_path, videoId: video.video_id },
  });
}

function useRefreshSetVideos(setId: number) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: videoSetKeys.videos(setId) }),
      queryClient.invalidateQueries({ queryKey: videoSetKeys.thumbs(setId) }),
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
      const saved = await call(apiRoutes.videos.create, {
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
      const saved = await call(apiRoutes.videos.update, {
        params: { video_id: videoId },
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
    mutationFn: (videoId: number) => call(apiRoutes.videos.remove, { params: { video_id: videoId } }),
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
