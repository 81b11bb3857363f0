import type { FastifyRequest } from 'fastify';
import type { DeviceVideo } from '@pathway/contract';
import type { Config } from '../../config.js';
import type { VideoRow, VideoSetRow } from '../progress/repository.js';

/** Storage keys (`uploads/...`, `thumbs/...`) are served under /media; anything else is a status text or a URL. */
const STORAGE_KEY = /^(uploads|thumbs|posters)\/[A-Za-z0-9][A-Za-z0-9_-]{0,120}(\.[a-z0-9]{1,5})?$/;

/** The origin the tablet reaches us on: PUBLIC_URL when set, else the request's own. */
export function tabletOrigin(request: FastifyRequest, config: Config): string {
  if (config.publicUrl) return new URL(config.publicUrl).origin;
  try {
    return new URL(`${request.protocol}://${request.host}`).origin;
  } catch {
    return `${request.protocol}://localhost`;
  }
}

function absolute(origin: string, value: string): string {
  return STORAGE_KEY.test(value) ? `${origin}/media/${value}` : value;
}

export function presentDeviceVideo(row: VideoRow, origin: string): DeviceVideo {
  return {
    video_id: row.video_id,
    title: row.title,
    description: row.description,
    file_location_path: absolute(origin, row.file_location_path),
    video_thumbnail_url: absolute(origin, row.video_thumbnail_url),
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
