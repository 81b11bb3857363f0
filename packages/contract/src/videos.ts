import { z } from 'zod';
import { idParam, requiredText } from './common.js';
import { limits } from './limits.js';
import { messages } from './messages.js';

const ms = messages.videoSet;
const mv = messages.video;

/**
 * A whole number typed into a form or sent as JSON: `3` and `"3"` pass, `""`, `2.5`, `"abc"` and
 * anything outside [min, max] are refused with the given messages.
 */
export function wholeNumber(
  emptyMessage: string,
  invalidMessage: string,
  min: number,
  max: number,
  tooLargeMessage = invalidMessage,
) {
  return z.preprocess(
    (value) => {
      if (value === '' || value === null) return undefined;
      if (typeof value === 'string' && /^\s*[-+]?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
      return value;
    },
    z
      .number({ error: (issue) => (issue.input === undefined ? emptyMessage : invalidMessage) })
      .int({ error: invalidMessage })
      .min(min, { error: invalidMessage })
      .max(max, { error: tooLargeMessage }),
  );
}

// ---- Video sets ----------------------------------------------------------------------------

export const videoSetName = requiredText(ms.nameEmpty, limits.textMin, ms.nameShort);

/** Whether a set is shared with every organisation; only a system administrator sets it. */
const sharedSet = z
  .boolean({ error: 'shared must be true or false' })
  .describe('Shared with every organisation (system administrators only)');

export const videoSet = z
  .object({
    fitness_video_set_id: z.number().int(),
    set_name: z.string(),
    number_of_weeks: z.number().int(),
    videos_in_week: z.number().int(),
    created_at: z.string().describe('ISO 8601; the console shows its first 10 characters'),
    organisation_id: z.number().int().describe('The organisation that made the set'),
    shared: z
      .boolean()
      .describe(
        'Published by a system administrator: every organisation reads it, only system administrators change it',
      ),
  })
  .meta({ id: 'VideoSet' });
export type VideoSet = z.infer<typeof videoSet>;

export const createVideoSetBody = z
  .object({
    set_name: videoSetName,
    number_of_weeks: wholeNumber(ms.weeksEmpty, ms.weeksInvalid, 1, limits.weeksMax, ms.weeksTooMany),
    videos_in_week: wholeNumber(ms.videosInWeekEmpty, ms.videosInWeekInvalid, 1, limits.videosInWeekMax),
    shared: sharedSet.default(false),
  })
  .meta({ id: 'CreateVideoSet' });
export type CreateVideoSetBody = z.input<typeof createVideoSetBody>;
export type CreateVideoSetInput = z.output<typeof createVideoSetBody>;

/** Only the name of a set can change: its shape is what participants' progress is measured on. */
export const updateVideoSetBody = z
  .object({ set_name: videoSetName.optional(), shared: sharedSet.optional() })
  .meta({ id: 'UpdateVideoSet' });
export type UpdateVideoSetBody = z.input<typeof updateVideoSetBody>;
export type UpdateVideoSetInput = z.output<typeof updateVideoSetBody>;

export const videoSetIdParams = z.object({ id: idParam });

/** What deleting a set will really do, for the warning the console shows before it. */
export const videoSetDeletionImpact = z
  .object({
    videos: z.number().int().describe('Videos of the set, deleted with it'),
    participants: z
      .number()
      .int()
      .describe('Participants on the set, whose progress and viewing records are deleted'),
    files_deleted: z.number().int().describe('Stored video files used by no other set, deleted from storage'),
    files_kept: z.number().int().describe('Stored video files also used by another set, which stay'),
  })
  .meta({ id: 'VideoSetDeletionImpact' });
export type VideoSetDeletionImpact = z.infer<typeof videoSetDeletionImpact>;

export const videoSetDeleted = videoSetDeletionImpact
  .extend({ message: z.string() })
  .meta({ id: 'VideoSetDeleted' });
export type VideoSetDeleted = z.infer<typeof videoSetDeleted>;

// ---- Videos --------------------------------------------------------------------------------

/** What deleting one video does to positions: who stands on its day and where they go. */
export const videoDeletionImpact = z
  .object({
    participants_on_day: z.number().int().describe("Participants whose current position is this video's day"),
    moved_to: z
      .object({ week: z.number().int(), day: z.number().int() })
      .nullable()
      .describe(
        'The nearest earlier day of the set with a video, where they are moved; null when there is none',
      ),
    refused: z
      .boolean()
      .describe('True when participants are on the day and there is no earlier day to move them to'),
  })
  .meta({ id: 'VideoDeletionImpact' });
export type VideoDeletionImpact = z.infer<typeof videoDeletionImpact>;

export const THUMBNAIL_PROCESSING = messages.thumbnail.processing;

/**
 * A thumbnail is shown only when its URL is a real, ready one. The original console showed it
 * when the URL started with https (it came from cloud storage); http is accepted as well so the
 * embedded server on http://localhost shows thumbnails too. Status texts never match.
 */
export function isReadyThumbnailUrl(value: string | null | undefined): value is string {
  return typeof value === 'string' && /^https?:\/\/\S+$/.test(value);
}

export const videoTitle = requiredText(mv.titleEmpty, limits.textMin, mv.titleShort);
export const videoDescription = requiredText(
  mv.descriptionEmpty,
  limits.textMin,
  mv.descriptionShort,
  limits.longTextMax,
);

/** The words of a video, as the add and edit forms ask for them. */
export const videoText = z.object({ title: videoTitle, description: videoDescription });
export type VideoText = z.infer<typeof videoText>;

export const video = z
  .object({
    video_id: z.number().int(),
    fitness_video_set_id: z.number().int(),
    set_name: z.string(),
    title: z.string(),
    description: z.string(),
    file_location_path: z.string().describe('Absolute URL of the video; served with HTTP range requests'),
    file_size: z.number().int(),
    video_thumbnail_url: z
      .string()
      .describe(
        `Absolute URL of the 100x80 thumbnail once made, else a status text ('${THUMBNAIL_PROCESSING}' while it is being made)`,
      ),
    poster_url: z.string().nullable().describe('Absolute URL of a larger frame for the player, once made'),
    video_length: z.string().describe('Duration in whole seconds once known, else the placeholder "0"'),
    week_number: z.number().int(),
    day_number: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Video' });
export type Video = z.infer<typeof video>;

const fileLocation = z
  .string({ error: mv.fileMissing })
  .trim()
  .min(1, { error: mv.fileMissing })
  .max(2000, { error: messages.upload.unknownFile });

export const createVideoBody = z
  .object({
    title: videoTitle,
    description: videoDescription,
    file_location_path: fileLocation.describe('The `location` answered by the finished upload'),
    fitness_video_set_id: z.preprocess(
      (v) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v),
      idParam,
    ),
    week_number: wholeNumber(mv.weekInvalid, mv.weekInvalid, 1, limits.weeksMax),
    day_number: wholeNumber(mv.dayInvalid, mv.dayInvalid, 1, limits.videosInWeekMax),
    file_size: z.unknown().optional().describe('Ignored: the server records the size it received'),
    video_thumbnail_url: z
      .unknown()
      .optional()
      .describe(`Ignored: a new video always starts as '${THUMBNAIL_PROCESSING}'`),
    video_length: z.unknown().optional().describe('Ignored: the server measures the duration'),
  })
  .meta({ id: 'CreateVideo' });
export type CreateVideoBody = z.input<typeof createVideoBody>;
export type CreateVideoInput = z.output<typeof createVideoBody>;

export const updateVideoBody = z
  .object({
    title: videoTitle.optional(),
    description: videoDescription.optional(),
    file_location_path: fileLocation
      .optional()
      .describe('A new upload replaces the video; its thumbnail starts again'),
    file_size: z.unknown().optional().describe('Ignored: the server records the size it received'),
    video_thumbnail_url: z.unknown().optional().describe('Ignored: the server manages thumbnails'),
  })
  .meta({ id: 'UpdateVideo' });
export type UpdateVideoBody = z.input<typeof updateVideoBody>;
export type UpdateVideoInput = z.output<typeof updateVideoBody>;

export const videoIdParams = z.object({ video_id: idParam });

export const thumbnailEntry = z.object({
  day_number: z.number().int(),
  video_thumbnail_url: z.string(),
  video_id: z.number().int(),
});
/** Call 6 of the device API and the console's reload button: the set's thumbnails by week. */
export const videoThumbs = z
  .record(z.string().describe('week_number'), z.array(thumbnailEntry))
  .meta({ id: 'VideoThumbnails' });
export type VideoThumbs = z.infer<typeof videoThumbs>;

export const videoSetIdParam = z.object({ videoSetId: idParam });

export const thumbsQuery = z.object({
  videoId: idParam,
  videoUrl: z
    .string()
    .max(2000)
    .optional()
    .describe('The video file URL the console saved (checked, never fetched)'),
});

/** Thumbnail re-extract from a participant's Advanced settings (spec §7: video_id and file_location_path). */
export const reextractThumbnailBody = z
  .object({
    video_id: idParam,
    file_location_path: z
      .string({ error: 'file_location_path is required' })
      .min(1, { error: 'file_location_path is required' })
      .max(2000),
  })
  .meta({ id: 'ReextractThumbnail' });

export const thumbsQueued = z
  .object({ message: z.string(), video_id: z.number().int(), video_thumbnail_url: z.string() })
  .meta({ id: 'ThumbnailQueued' });
export type ThumbsQueued = z.infer<typeof thumbsQueued>;

// ---- Upload --------------------------------------------------------------------------------

export const UPLOAD_ENDPOINT = '/companion';

export const uploadSettings = z
  .object({
    endpoint: z.string().describe('tus endpoint'),
    max_upload_bytes: z.number().int(),
    chunk_size_bytes: z.number().int(),
  })
  .meta({ id: 'UploadSettings' });
export type UploadSettings = z.infer<typeof uploadSettings>;

/** The body of the request that finishes an upload (the console reads `location`). */
export const finishedUpload = z.object({
  location: z.string(),
  file_size: z.number().int(),
  duration_seconds: z.number(),
});
export type FinishedUpload = z.infer<typeof finishedUpload>;
