import type { DeviceVideo } from '@pathway/contract';
import { mediaUrl, presentStoredUrl } from '../videos/media-urls.js';
import type { VideoRow, VideoSetRow } from '../progress/repository.js';

/** A video as the tablet reads it: the file and thumbnail as absolute URLs on `origin`. */
export function presentDeviceVideo(row: VideoRow, origin: string): DeviceVideo {
  return {
    video_id: row.video_id,
    title: row.title,
    description: row.description,
    file_location_path: mediaUrl(origin, row.file_location_path),
    video_thumbnail_url: presentStoredUrl(origin, row.video_thumbnail_url),
    day_number: row.day_number,
    week_number: row.week_number,
    video_length: row.video_length,
    fitness_video_set_id: row.fitness_video_set_id,
    created_at: row.created_at.toISOString(),
  };
}

export function presentDeviceVideoSet(set: VideoSetRow) {
  return {
    fitness_video_set_id: set.fitness_video_set_id,
    set_name: set.set_name,
    number_of_weeks: set.number_of_weeks,
    videos_in_week: set.videos_in_week,
    created_at: set.created_at.toISOString(),
  };
}
