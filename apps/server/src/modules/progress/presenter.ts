import type { DeviceProgress, ParticipationProgress } from '@pathway/contract';
import type { ProgressRow } from './repository.js';

/** The console's reading (spec §3): percentage as a text number. */
export function presentProgress(row: ProgressRow): ParticipationProgress {
  return {
    fitness_participation_progress_id: row.fitness_participation_progress_id,
    participant_id: row.participant_id,
    fitness_video_set_id: row.fitness_video_set_id,
    current_week: row.current_week,
    current_day: row.current_day,
    started_date: row.started_date,
    last_seen_date: row.last_seen_date,
    percentage_progress: String(row.percentage_progress),
    video_stopped_at: row.video_stopped_at,
    created_at: row.created_at.toISOString(),
  };
}

/** The tablet app's reading (device-api.md): integers as integers, no field ever null. */
export function presentDeviceProgress(row: ProgressRow): DeviceProgress {
  return {
    fitness_participation_progress_id: row.fitness_participation_progress_id,
    participant_id: row.participant_id,
    fitness_video_set_id: row.fitness_video_set_id,
    current_week: row.current_week,
    current_day: row.current_day,
    percentage_progress: row.percentage_progress,
    created_at: row.created_at.toISOString(),
    started_date: row.started_date,
    last_seen_date: row.last_seen_date,
    video_stopped_at: row.video_stopped_at,
  };
}
