import { randomBytes } from 'node:crypto';
import type { Database } from '../src/db/client.js';
import {
  authorizedDevices,
  participants,
  participationProgress,
  videoSets,
  videos,
} from '../src/db/schema.js';
import { firstSite } from './factories.js';

/**
 * Small factories for the programme engine's tests: rows written straight to the tables, each
 * unique per call, so a test states only what matters to it.
 */
let counter = 0;
const next = () => ++counter;

export const randomDeviceUuid = () => randomBytes(8).toString('hex');

export async function makeVideoSet(
  db: Database,
  shape: { weeks?: number; perWeek?: number; name?: string; organisation_id?: number; shared?: boolean } = {},
) {
  const [row] = await db
    .insert(videoSets)
    .values({
      set_name: shape.name ?? `Set ${next()}`,
      number_of_weeks: shape.weeks ?? 2,
      videos_in_week: shape.perWeek ?? 3,
      organisation_id: shape.organisation_id ?? (await firstSite(db)).organisation_id,
      shared: shape.shared ?? false,
    })
    .returning();
  return row!;
}

/** One video for every (week, day) of the set, unless `positions` names a subset. */
export async function makeVideos(
  db: Database,
  set: { fitness_video_set_id: number; number_of_weeks: number; videos_in_week: number },
  positions?: { week: number; day: number }[],
) {
  const wanted =
    positions ??
    Array.from({ length: set.number_of_weeks * set.videos_in_week }, (_, i) => ({
      week: Math.floor(i / set.videos_in_week) + 1,
      day: (i % set.videos_in_week) + 1,
    }));
  if (wanted.length === 0) return [];
  return db
    .insert(videos)
    .values(
      wanted.map(({ week, day }) => ({
        fitness_video_set_id: set.fitness_video_set_id,
        title: `Week ${week} day ${day}`,
        description: `Exercises for week ${week}, day ${day}`,
        file_location_path: `uploads/${randomBytes(16).toString('hex')}`,
        file_size: 1000,
        video_thumbnail_url: `thumbs/set${set.fitness_video_set_id}-w${week}d${day}.jpg`,
        video_length: '120',
        week_number: week,
        day_number: day,
      })),
    )
    .returning();
}

export async function makeDevice(
  db: Database,
  overrides: { uuid?: string; name?: string; organisation_id?: number } = {},
) {
  const [row] = await db
    .insert(authorizedDevices)
    .values({
      name: overrides.name ?? `Tablet ${next()}`,
      uuid: overrides.uuid ?? randomDeviceUuid(),
      organisation_id: overrides.organisation_id ?? (await firstSite(db)).organisation_id,
    })
    .returning();
  return row!;
}

export async function makeParticipant(
  db: Database,
  overrides: {
    deviceId?: number | null;
    first_name?: string;
    site?: { site_id: number; organisation_id: number };
  } = {},
) {
  const n = next();
  const site = overrides.site ?? (await firstSite(db));
  const [row] = await db
    .insert(participants)
    .values({
      first_name: overrides.first_name ?? `First${n}`,
      last_name: `Last${n}`,
      date_of_birth: '1960-05-17',
      phone_number: '+447700900123',
      address: `${n} Test Street`,
      language: 'English',
      authorized_device_id: overrides.deviceId ?? null,
      ...site,
    })
    .returning();
  return row!;
}

export async function makeProgress(
  db: Database,
  participantId: number,
  setId: number,
  fields: { started_date: string; current_week?: number; current_day?: number },
) {
  const [row] = await db
    .insert(participationProgress)
    .values({
      participant_id: participantId,
      fitness_video_set_id: setId,
      started_date: fields.started_date,
      last_seen_date: fields.started_date,
      current_week: fields.current_week ?? 1,
      current_day: fields.current_day ?? 1,
    })
    .returning();
  return row!;
}

/** A participant with a device and a set of videos, ready for the tablet app. */
export async function makeEnrolledParticipant(
  db: Database,
  options: {
    weeks?: number;
    perWeek?: number;
    started_date: string;
    set?: Awaited<ReturnType<typeof makeVideoSet>>;
    first_name?: string;
  },
) {
  const set = options.set ?? (await makeVideoSet(db, { weeks: options.weeks, perWeek: options.perWeek }));
  const setVideos = options.set ? [] : await makeVideos(db, set);
  const device = await makeDevice(db);
  const participant = await makeParticipant(db, {
    deviceId: device.authorized_device_id,
    first_name: options.first_name,
  });
  const progress = await makeProgress(db, participant.participant_id, set.fitness_video_set_id, {
    started_date: options.started_date,
  });
  return { set, videos: setVideos, device, participant, progress };
}

/** Who changes a test's video library when a test calls the library's services directly. */
export async function libraryEditor(db: Database) {
  return {
    organisationId: (await firstSite(db)).organisation_id,
    systemAdministrator: true,
    everySite: true,
  };
}
