import { deviceRegistration, deviceVideo, type DeviceVideo } from '@pathway/contract';
import { z } from 'zod';
import { compileSerializer } from '../../lib/compiled-serializer.js';
import { mediaUrl, storedUrl } from '../videos/index.js';
import type { VideoRow, VideoSetRow } from '../progress/index.js';
import type { ProgrammeVideo, SignInFound } from './repository.js';

type PresentableVideo = Pick<VideoRow, keyof ProgrammeVideo>;

/** A video as the tablet reads it: the file and thumbnail as absolute URLs on `origin`. */
export function presentDeviceVideo(row: PresentableVideo, origin: string): DeviceVideo {
  return {
    video_id: row.video_id,
    title: row.title,
    description: row.description,
    file_location_path: mediaUrl(origin, row.file_location_path),
    video_thumbnail_url: storedUrl(origin, row.video_thumbnail_url),
    day_number: row.day_number,
    week_number: row.week_number,
    video_length: row.video_length,
    fitness_video_set_id: row.fitness_video_set_id,
    created_at: row.created_at.toISOString(),
  };
}

export function presentDeviceVideoSet(
  set: Pick<
    VideoSetRow,
    'fitness_video_set_id' | 'set_name' | 'number_of_weeks' | 'videos_in_week' | 'created_at'
  >,
) {
  return {
    fitness_video_set_id: set.fitness_video_set_id,
    set_name: set.set_name,
    number_of_weeks: set.number_of_weeks,
    videos_in_week: set.videos_in_week,
    created_at: set.created_at.toISOString(),
  };
}

/**
 * Call 1's answer is written from two compiled serializers of the contract's schema: the answer
 * without its videos, and the video list, which is the same for every tablet on the set and so is
 * kept as JSON bytes (see ProgrammeVideoCache) instead of being presented and written 350 objects
 * at a time on every call.
 */
const writeRegistrationHead = compileSerializer(deviceRegistration.omit({ videos: true }));
const writeVideoList = compileSerializer(z.array(deviceVideo));

export function videoListJson(videos: readonly PresentableVideo[], origin: string): Buffer {
  return Buffer.from(writeVideoList(videos.map((v) => presentDeviceVideo(v, origin))));
}

const CLOSE = Buffer.from('}');

/** Call 1's JSON (device-api.md): the registration with `videos` (already JSON) spliced in last. */
export function registrationJson(
  answer: {
    token: string;
    deviceUuid: string;
    participant: NonNullable<SignInFound['participant']>;
    programme: NonNullable<SignInFound['programme']>;
  },
  videosJson: Buffer,
): Buffer {
  const { progress, set } = answer.programme;
  const head = writeRegistrationHead({
    auth_token: answer.token,
    participant_id: answer.participant.participant_id,
    first_name: answer.participant.first_name,
    last_name: answer.participant.last_name,
    unique_device_id: answer.deviceUuid,
    purge_cache: answer.participant.purge_cache,
    fitness_video_sets: presentDeviceVideoSet(set),
    fitness_participation_progress: {
      fitness_participation_progress_id: progress.fitness_participation_progress_id,
      participant_id: progress.participant_id,
      fitness_video_set_id: progress.fitness_video_set_id,
      current_week: progress.current_week,
      current_day: progress.current_day,
      percentage_progress: progress.percentage_progress,
      created_at: progress.created_at.toISOString(),
      started_date: progress.started_date,
      last_seen_date: progress.last_seen_date,
      video_stopped_at: progress.video_stopped_at,
    },
  });
  // The head is a JSON object: its closing brace gives way to the video list.
  return Buffer.concat([Buffer.from(`${head.slice(0, -1)},"videos":`), videosJson, CLOSE]);
}
