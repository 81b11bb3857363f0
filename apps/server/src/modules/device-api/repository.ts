import type { Database } from '../../db/client.js';
import { preparedArrays as arrays } from '../../db/prepared.js';
import { rowReader } from '../../db/rows.js';

/*
 * Tablet call 1's reads and writes as plain SQL run by the driver (db/prepared.ts): the call
 * is the device API's hottest and largest answer, and Drizzle's building of four statements, its
 * transaction's BEGIN and COMMIT, and its per-value mapping of the programme's 350 videos were most
 * of its JavaScript. Both texts are point reads and writes by unique keys.
 */

/** What call 1 found for a device id: the device, its participant, their programme and its set. */
export interface SignInFound {
  deviceId: number;
  participant: { participant_id: number; first_name: string; last_name: string; purge_cache: boolean } | null;
  /** Null when the participant has no programme. */
  programme: {
    progress: {
      fitness_participation_progress_id: number;
      participant_id: number;
      fitness_video_set_id: number;
      current_week: number;
      current_day: number;
      percentage_progress: number;
      created_at: Date;
      started_date: string;
      last_seen_date: string;
      video_stopped_at: string;
    };
    set: {
      fitness_video_set_id: number;
      set_name: string;
      number_of_weeks: number;
      videos_in_week: number;
      created_at: Date;
      videos_version: number;
    };
  } | null;
  /** A new address while the tablet's token was in use within the window: flagged to staff. */
  flagged: boolean;
}

/**
 * One statement, so one round trip and atomic without BEGIN/COMMIT: reads the device, its
 * participant, programme and set, and, only when all of them exist, issues the token, records the
 * sign-in and sets the participant's contact time. The sign-in is flagged when the participant's
 * last address is known and differs while one of the tablet's tokens was used since $2.
 */
const SIGN_IN_SQL = `
with found as (
  select d.authorized_device_id, p.participant_id, p.first_name, p.last_name, p.purge_cache,
    coalesce(p.last_ip_address <> $5 and exists (
      select 1 from device_tokens t
      where t.authorized_device_id = d.authorized_device_id and t.participant_id = p.participant_id
        and t.revoked_at is null and t.last_used_at >= $2::timestamptz
    ), false) as flagged,
    pp.fitness_participation_progress_id, pp.fitness_video_set_id, pp.current_week, pp.current_day,
    pp.percentage_progress, pp.created_at as progress_created_at, pp.started_date::text,
    pp.last_seen_date::text, pp.video_stopped_at,
    s.set_name, s.number_of_weeks, s.videos_in_week, s.created_at as set_created_at, s.videos_version,
    d.organisation_id
  from authorized_devices d
  left join participants p on p.authorized_device_id = d.authorized_device_id
  left join (fitness_participation_progress pp
    join fitness_video_sets s on s.fitness_video_set_id = pp.fitness_video_set_id)
    on pp.participant_id = p.participant_id
  where d.uuid = $1
), issued as (
  insert into device_tokens (token_hash, authorized_device_id, participant_id, created_at)
  select $3, authorized_device_id, participant_id, $4::timestamptz
  from found where fitness_participation_progress_id is not null
), recorded as (
  insert into device_sign_ins (kind, authorized_device_id, device_uuid, participant_id, ip_address, flagged,
    created_at, organisation_id)
  select $6, authorized_device_id, $1, participant_id, $5, flagged, $4::timestamptz, organisation_id
  from found where fitness_participation_progress_id is not null
), touched as (
  update participants p set tablet_last_contact_at = $4::timestamptz
  from found f where f.fitness_participation_progress_id is not null and p.participant_id = f.participant_id
)
select * from found`;

/** A row of SIGN_IN_SQL's `found`, in its select order; the programme's columns are null without one. */
interface SignInRow {
  authorized_device_id: number;
  participant_id: number | null;
  first_name: string;
  last_name: string;
  purge_cache: boolean;
  flagged: boolean;
  fitness_participation_progress_id: number | null;
  fitness_video_set_id: number;
  current_week: number;
  current_day: number;
  percentage_progress: number;
  progress_created_at: Date;
  started_date: string;
  last_seen_date: string;
  video_stopped_at: string;
  set_name: string;
  number_of_weeks: number;
  videos_in_week: number;
  set_created_at: Date;
  videos_version: number;
  organisation_id: number;
}

const readSignIn = rowReader<SignInRow>()([
  'authorized_device_id',
  'participant_id',
  'first_name',
  'last_name',
  'purge_cache',
  'flagged',
  'fitness_participation_progress_id',
  'fitness_video_set_id',
  'current_week',
  'current_day',
  'percentage_progress',
  'progress_created_at',
  'started_date',
  'last_seen_date',
  'video_stopped_at',
  'set_name',
  'number_of_weeks',
  'videos_in_week',
  'set_created_at',
  'videos_version',
  'organisation_id',
]);

export async function signInDevice(
  db: Database,
  input: {
    deviceUuid: string;
    recentUse: Date;
    tokenHash: string;
    now: Date;
    ip: string;
    kind: string;
  },
): Promise<SignInFound | null> {
  const [values] = await arrays(db, 'device-api.sign-in.v2', SIGN_IN_SQL, [
    input.deviceUuid,
    input.recentUse.toISOString(),
    input.tokenHash,
    input.now.toISOString(),
    input.ip,
    input.kind,
  ]);
  if (!values) return null;
  const row = readSignIn(values);
  const participantId = row.participant_id;
  const progressId = row.fitness_participation_progress_id;
  return {
    deviceId: row.authorized_device_id,
    participant:
      participantId === null
        ? null
        : {
            participant_id: participantId,
            first_name: row.first_name,
            last_name: row.last_name,
            purge_cache: row.purge_cache,
          },
    programme:
      progressId === null
        ? null
        : {
            progress: {
              fitness_participation_progress_id: progressId,
              participant_id: participantId!,
              fitness_video_set_id: row.fitness_video_set_id,
              current_week: row.current_week,
              current_day: row.current_day,
              percentage_progress: row.percentage_progress,
              created_at: row.progress_created_at,
              started_date: row.started_date,
              last_seen_date: row.last_seen_date,
              video_stopped_at: row.video_stopped_at,
            },
            set: {
              fitness_video_set_id: row.fitness_video_set_id,
              set_name: row.set_name,
              number_of_weeks: row.number_of_weeks,
              videos_in_week: row.videos_in_week,
              created_at: row.set_created_at,
              videos_version: row.videos_version,
            },
          },
    flagged: row.flagged,
  };
}

/** A video as call 1 presents it. */
export interface ProgrammeVideo {
  video_id: number;
  title: string;
  description: string;
  file_location_path: string;
  video_thumbnail_url: string;
  day_number: number;
  week_number: number;
  video_length: string;
  fitness_video_set_id: number;
  created_at: Date;
}

/**
 * The set's videos in programme order, each row with the set's version read in the same snapshot;
 * a set without videos is one row whose video columns are null.
 */
const SET_VIDEOS_SQL = `
select v.video_id, v.title, v.description, v.file_location_path, v.video_thumbnail_url,
  v.day_number, v.week_number, v.video_length, s.fitness_video_set_id, v.created_at, s.videos_version
from fitness_video_sets s
left join videos v on v.fitness_video_set_id = s.fitness_video_set_id
where s.fitness_video_set_id = $1
order by v.week_number, v.day_number`;

/** A video as ProgrammeVideo, with its set's version beside it (presenters read only the video's fields). */
const readSetVideo = rowReader<ProgrammeVideo & { videos_version: number }>()([
  'video_id',
  'title',
  'description',
  'file_location_path',
  'video_thumbnail_url',
  'day_number',
  'week_number',
  'video_length',
  'fitness_video_set_id',
  'created_at',
  'videos_version',
]);

export async function listProgrammeVideos(
  db: Database,
  setId: number,
): Promise<{ version: number; videos: ProgrammeVideo[] } | null> {
  const rows = (await arrays(db, 'device-api.set-videos.v2', SET_VIDEOS_SQL, [setId])).map(readSetVideo);
  if (rows.length === 0) return null;
  const videos = rows.filter((v) => v.video_id !== null);
  return { version: rows[0]!.videos_version, videos };
}
