import { messages, type ThumbsQueued, type Video, type VideoSet, type VideoThumbs } from '@pathway/contract';
import type { videoSets, videos } from '../../../db/schema.js';
import { mediaUrl, storedUrl } from '../media/urls.js';

type VideoSetRow = typeof videoSets.$inferSelect;
type VideoRow = typeof videos.$inferSelect;

export function presentVideoSet(row: VideoSetRow): VideoSet {
  return {
    fitness_video_set_id: row.fitness_video_set_id,
    set_name: row.set_name,
    number_of_weeks: row.number_of_weeks,
    videos_in_week: row.videos_in_week,
    created_at: row.created_at.toISOString(),
    organisation_id: row.organisation_id,
    shared: row.shared,
  };
}

/**
 * A video as the console and the tablet app read it (device-api.md "Video"): stored keys become
 * absolute URLs on `origin`; a thumbnail still being made shows its status text.
 */
export function presentVideo(row: VideoRow, setName: string, origin: string): Video {
  return {
    video_id: row.video_id,
    fitness_video_set_id: row.fitness_video_set_id,
    set_name: setName,
    title: row.title,
    description: row.description,
    file_location_path: mediaUrl(origin, row.file_location_path),
    file_size: row.file_size,
    video_thumbnail_url: storedUrl(origin, row.video_thumbnail_url),
    poster_url: row.poster_url ? mediaUrl(origin, row.poster_url) : null,
    video_length: row.video_length,
    week_number: row.week_number,
    day_number: row.day_number,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** The answer to GET /thumbs: queued, or already there, with the thumbnail's URL or status text. */
export function presentThumbnailRequest(
  status: 'ready' | 'processing',
  row: Pick<VideoRow, 'video_id' | 'video_thumbnail_url'>,
  origin: string,
): ThumbsQueued {
  return {
    message: status === 'ready' ? 'The thumbnail is ready' : messages.thumbnail.queued,
    video_id: row.video_id,
    video_thumbnail_url: storedUrl(origin, row.video_thumbnail_url),
  };
}

/** A set's thumbnails by week (tablet call 6 and the console), in the rows' order. */
export function presentThumbsByWeek(
  rows: Pick<VideoRow, 'week_number' | 'day_number' | 'video_thumbnail_url' | 'video_id'>[],
  origin: string,
): VideoThumbs {
  const byWeek: VideoThumbs = {};
  for (const row of rows) {
    (byWeek[String(row.week_number)] ??= []).push({
      day_number: row.day_number,
      video_thumbnail_url: storedUrl(origin, row.video_thumbnail_url),
      video_id: row.video_id,
    });
  }
  return byWeek;
}
