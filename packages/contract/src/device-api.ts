import { z } from 'zod';
import { idParam } from './common.js';
import { messages } from './messages.js';
import { textualWholeNumber } from './progress.js';

/**
 * The tablet app's calls (shared/spec/device-api.md). The app cannot change, so these shapes
 * are exactly what it reads: integers where it expects integers, strings where it expects
 * strings, and no null in the progress object.
 */
const m = messages.deviceApi;

/** The tablet's Android ID: 16 hex characters (compared in lower case). */
export const deviceIdParam = z.object({
  deviceId: z
    .string()
    .regex(/^[0-9a-fA-F]{16}$/, { error: m.badDeviceId })
    .transform((v) => v.toLowerCase()),
});

export const pushTokenBody = z
  .object({
    push_notification_id: z
      .string({ error: m.pushTokenEmpty })
      .trim()
      .min(1, { error: m.pushTokenEmpty })
      .max(4096, { error: 'push_notification_id is too long' }),
  })
  .meta({ id: 'DevicePushToken' });

/** Call 3 sends the string "false"; a JSON boolean is accepted as well. */
export const devicePurgeCacheBody = z
  .object({
    purge_cache: z
      .union([z.boolean(), z.enum(['true', 'false'])], { error: m.purgeCacheInvalid })
      .transform((v) => v === true || v === 'true'),
  })
  .meta({ id: 'DevicePurgeCache' });

/** One id or a list; form bodies repeat the key (`videoIds=1&videoIds=2`) or use `videoIds[]`. */
const videoIdList = z.preprocess(
  (v) => (v === undefined || v === null || v === '' ? undefined : Array.isArray(v) ? v : [v]),
  z
    .array(
      z.preprocess(
        (id) => (typeof id === 'string' && /^\s*\d+\s*$/.test(id) ? Number(id) : id),
        z.number({ error: 'Each video id must be a whole number' }).int().positive().max(2147483647),
      ),
      { error: m.videoIdsEmpty },
    )
    .min(1, { error: m.videoIdsEmpty })
    .max(500, { error: 'At most 500 videos can be reported at once' }),
);

export const viewReportBody = z.preprocess(
  (body) => {
    if (body && typeof body === 'object' && !('videoIds' in body) && 'videoIds[]' in body) {
      const { 'videoIds[]': ids, ...rest } = body as Record<string, unknown>;
      return { ...rest, videoIds: ids };
    }
    return body;
  },
  z
    .object({
      day: textualWholeNumber(messages.progress.dayEmpty),
      week: textualWholeNumber(messages.progress.weekEmpty),
      videoIds: videoIdList,
    })
    .meta({ id: 'DeviceViewReport' }),
);
export type ViewReportBody = z.infer<typeof viewReportBody>;

export const deviceVideoSet = z
  .object({
    fitness_video_set_id: z.number().int(),
    set_name: z.string(),
    number_of_weeks: z.number().int(),
    videos_in_week: z.number().int(),
    created_at: z.string(),
  })
  .meta({ id: 'DeviceVideoSet' });

export const deviceVideo = z
  .object({
    video_id: z.number().int(),
    title: z.string(),
    description: z.string(),
    file_location_path: z.string().describe('Absolute URL; the server answers HTTP range requests on it'),
    video_thumbnail_url: z
      .string()
      .describe("An https URL once generated, else its status text ('processing....')"),
    day_number: z.number().int(),
    week_number: z.number().int(),
    video_length: z.string(),
    fitness_video_set_id: z.number().int(),
    created_at: z.string(),
  })
  .meta({ id: 'DeviceVideo' });
export type DeviceVideo = z.infer<typeof deviceVideo>;

export const deviceTodayVideo = deviceVideo
  .extend({
    fitness_video_set: z.object({
      fitness_video_set_id: z.number().int(),
      set_name: z.string(),
      number_of_weeks: z.number().int(),
      videos_in_week: z.number().int(),
    }),
  })
  .meta({ id: 'DeviceTodayVideo' });

export const deviceProgress = z
  .object({
    fitness_participation_progress_id: z.number().int(),
    participant_id: z.number().int(),
    fitness_video_set_id: z.number().int(),
    current_week: z.number().int(),
    current_day: z.number().int(),
    percentage_progress: z.number().int(),
    created_at: z.string(),
    started_date: z.string(),
    last_seen_date: z.string(),
    video_stopped_at: z.string(),
  })
  .meta({ id: 'DeviceProgress' });
export type DeviceProgress = z.infer<typeof deviceProgress>;

/** Call 1: who the tablet belongs to, with the token for calls 3 to 8. */
export const deviceRegistration = z
  .object({
    auth_token: z.string(),
    participant_id: z.number().int(),
    first_name: z.string(),
    last_name: z.string(),
    unique_device_id: z.string(),
    purge_cache: z.boolean(),
    videos: z.array(deviceVideo),
    fitness_video_sets: deviceVideoSet,
    fitness_participation_progress: deviceProgress,
  })
  .meta({ id: 'DeviceRegistration' });

export const deviceSetParams = z.object({ videoSetId: idParam, participantId: idParam });
export const deviceProgressParams = z.object({ progressId: idParam });
export const deviceParticipantParams = z.object({ participantId: idParam });
