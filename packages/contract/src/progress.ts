import { z } from 'zod';
import { idParam } from './common.js';
import { messages } from './messages.js';

const m = messages.progress;

/** A whole number that may arrive as text (form bodies); empty means missing. */
export const textualWholeNumber = (emptyMessage: string) =>
  z.preprocess(
    (v) =>
      v === '' || v === null ? undefined : typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v,
    z
      .number({ error: (issue) => (issue.input === undefined ? emptyMessage : 'Must be a whole number') })
      .int({ error: 'Must be a whole number' })
      .min(-1_000_000, { error: 'The number is out of range' })
      .max(1_000_000, { error: 'The number is out of range' }),
  );

/**
 * Participation progress as the console reads it (spec §3): `percentage_progress` is a text
 * number there; the tablet app gets an integer (see device-api.ts).
 */
export const participationProgress = z
  .object({
    fitness_participation_progress_id: z.number().int(),
    participant_id: z.number().int(),
    fitness_video_set_id: z.number().int(),
    current_week: z.number().int(),
    current_day: z.number().int(),
    started_date: z.string().describe('YYYY-MM-DD, in the programme time zone'),
    last_seen_date: z.string().describe('YYYY-MM-DD of the last video watched (the start date until then)'),
    percentage_progress: z.string().describe('Whole number 0-100, as text'),
    video_stopped_at: z.string(),
    created_at: z.string(),
  })
  .meta({ id: 'ParticipationProgress' });
export type ParticipationProgress = z.infer<typeof participationProgress>;

/** Fields the server decides itself (§4); the console may send them, their values are not used. */
const serverDecided = {
  started_date: z.string().max(40).optional().describe('Ignored: the server sets today'),
  last_seen_date: z.string().max(40).optional().describe('Ignored: the server keeps it'),
  percentage_progress: z
    .union([z.string().max(10), z.number()])
    .optional()
    .describe('Ignored: computed by the server'),
};

export const createProgressBody = z
  .object({
    participant_id: idParam,
    fitness_video_set_id: idParam,
    current_week: z
      .union([z.string().max(10), z.number()])
      .optional()
      .describe('Ignored: progress starts at week 1'),
    current_day: z
      .union([z.string().max(10), z.number()])
      .optional()
      .describe('Ignored: progress starts at day 1'),
    video_stopped_at: z
      .union([z.string().max(20), z.number()])
      .optional()
      .describe('Ignored: starts at 0'),
    ...serverDecided,
  })
  .meta({ id: 'CreateParticipationProgress' });
export type CreateProgressBody = z.infer<typeof createProgressBody>;

const videoStoppedAt = z
  .union([z.string().trim(), z.number()])
  .transform((v) => String(v))
  .refine((v) => /^\d{1,7}(\.\d{1,3})?$/.test(v), { error: m.videoStoppedAtInvalid });

/**
 * A different `fitness_video_set_id` resets the progress to week 1, day 1 (the console asks
 * 'Are you sure?' first); `current_week`/`current_day` follow the move rules of §4.
 */
export const updateProgressBody = z
  .object({
    participant_id: z
      .union([z.string().max(12), z.number()])
      .optional()
      .describe('Ignored: progress stays with its participant'),
    fitness_video_set_id: idParam.optional(),
    current_week: textualWholeNumber(m.weekEmpty).optional(),
    current_day: textualWholeNumber(m.dayEmpty).optional(),
    video_stopped_at: videoStoppedAt.optional(),
    ...serverDecided,
  })
  .meta({ id: 'UpdateParticipationProgress' });
export type UpdateProgressBody = z.infer<typeof updateProgressBody>;

/** Move to week/day (`/api/video/progress/forward|backward/{participantId}`). */
export const moveProgressBody = z
  .object({
    week: textualWholeNumber(m.weekEmpty),
    day: textualWholeNumber(m.dayEmpty),
  })
  .meta({ id: 'MoveProgress' });
export type MoveProgressBody = z.infer<typeof moveProgressBody>;

export const seenVideo = z.object({
  video_id: z.number().int(),
  week_number: z.number().int(),
  day_number: z.number().int(),
  created_at: z.string(),
});

/** The progress summary; the field names' spelling is the contract (spec §3). */
export const progressSummary = z
  .object({
    daysPassed: z.number().int(),
    todalDaysInProgramme: z.number().int().describe('Calendar days: weeks × 7'),
    excerciseDaysInProgramme: z.number().int().describe('Exercise days: weeks × videos per week'),
    averagePerDay: z.number().describe('Videos watched per calendar day since the start, today included'),
    shouldSeenByNow: z.number().int(),
    actuallySeen: z.number().int(),
    seenVideos: z.array(seenVideo),
  })
  .meta({ id: 'ProgressSummary' });
export type ProgressSummary = z.infer<typeof progressSummary>;

export const participantIdParam = z.object({ id: idParam });
export const summaryParams = z.object({ videoSetId: idParam, participantId: idParam });

/** A push message as staff see it in the outbox; basic-access users get no title or body. */
export const pushOutboxEntry = z
  .object({
    push_id: z.number().int(),
    kind: z.string(),
    title: z.string().optional(),
    body: z.string().optional(),
    status: z.string(),
    attempts: z.number().int(),
    last_error: z.string().nullable(),
    created_at: z.string(),
    sent_at: z.string().nullable(),
  })
  .meta({ id: 'PushOutboxEntry' });
export type PushOutboxEntry = z.infer<typeof pushOutboxEntry>;
