import type { APIRequestContext } from '@playwright/test';
import type { AuthorisedDevice, ParticipantFull } from '@pathway/contract';
import { writeTestVideo } from '../../server/test/test-video-file';
import { expect } from './fixtures';

let counter = 0;

/** A name no other test uses, in letters only (names are searched for in the grid). */
export function uniqueWord(prefix: string): string {
  counter += 1;
  const letters = (Date.now() * 100 + counter)
    .toString(26)
    .split('')
    .map((c) => String.fromCharCode(97 + parseInt(c, 26)))
    .join('');
  return `${prefix}${letters}`;
}

/** A fresh Android-style device id: 16 lower-case hex characters. */
export function newUuid(): string {
  return Array.from({ length: 16 }, () => Math.floor(Math.random() * 16).toString(16)).join('');
}

export async function addDevice(
  api: APIRequestContext,
  name = uniqueWord('Tablet '),
): Promise<AuthorisedDevice> {
  const response = await api.post('/api/authorizeddevices', { data: { name, uuid: newUuid() } });
  expect(response.status(), await response.text()).toBe(201);
  return response.json();
}

/** A participant with a device of their own, added through the API as the setup's full-access admin. */
export async function addParticipant(
  api: APIRequestContext,
  overrides: Partial<Record<string, unknown>> = {},
): Promise<{ participant: ParticipantFull; device: AuthorisedDevice }> {
  const device = await addDevice(api);
  const response = await api.post('/api/participant', {
    data: {
      first_name: 'Ada',
      last_name: uniqueWord('Lovelace'),
      gender: 'female',
      date_of_birth: '1961-04-12',
      email: 'ada@example.org',
      phone_number: '+447700900123',
      address: '1 Test Street, Leeds',
      language: 'English',
      unique_device_id: device.uuid,
      programme_referred_to: 'pad-programme',
      referring_organisation: 'Leeds Community Practice',
      referring_healthcare_professional: 'Dr Grace Hopper',
      referring_healthcare_professional_role: 'GP',
      checked_contraindications_to_exercise: true,
      smoker: false,
      diabetes: false,
      registered_deaf: false,
      ...overrides,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return { participant: await response.json(), device };
}

/**
 * A video set of the given shape with a video on every day (one uploaded file behind them all),
 * added through the API: a participant's position may only point at a day with a video.
 */
export async function addVideoSetThroughApi(api: APIRequestContext, weeks = 2, perWeek = 3) {
  const response = await api.post('/api/videoset', {
    data: { set_name: uniqueWord('Walking '), number_of_weeks: weeks, videos_in_week: perWeek },
  });
  expect(response.status(), await response.text()).toBe(201);
  const set = (await response.json()) as { fitness_video_set_id: number; set_name: string };
  const upload = await uploadTestVideo(api);
  const video_ids: number[] = [];
  for (let week = 1; week <= weeks; week += 1)
    for (let day = 1; day <= perWeek; day += 1)
      video_ids.push(await addVideo(api, set.fitness_video_set_id, week, day, upload));
  return { ...set, video_ids };
}

/** Starts the participant's programme on a set (today, week 1 day 1): they then have an adherence state. */
export async function enrol(api: APIRequestContext, participantId: number, setId: number): Promise<void> {
  const today = new Date().toISOString().slice(0, 10);
  const response = await api.post('/api/participationprogress', {
    data: {
      participant_id: participantId,
      fitness_video_set_id: setId,
      started_date: today,
      last_seen_date: today,
      percentage_progress: '0',
      current_week: 1,
      current_day: 1,
      video_stopped_at: '0',
    },
  });
  expect(response.status(), await response.text()).toBeLessThan(300);
}

/**
 * A short real video (ffmpeg's test pattern), uploaded over tus as the console's uploader does:
 * the stored file's `location` and size, for videos that point at it.
 */
export async function uploadTestVideo(api: APIRequestContext): Promise<{ location: string; size: number }> {
  const { mkdtempSync, readFileSync, rmSync } = await import('node:fs');
  const os = await import('node:os');
  const path = await import('node:path');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pathway-e2e-video-'));
  const file = path.join(dir, 'view.mp4');
  try {
    writeTestVideo(file, { seconds: 1, size: '160x120', rate: 10 });
    const bytes = readFileSync(file);
    const created = await api.post('/companion', {
      headers: {
        'Tus-Resumable': '1.0.0',
        'Upload-Length': String(bytes.length),
        'Upload-Metadata': `filename ${Buffer.from('view.mp4').toString('base64')},filetype ${Buffer.from('video/mp4').toString('base64')}`,
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const uploadUrl = created.headers()['location']!;
    const sent = await api.patch(uploadUrl, {
      headers: {
        'Tus-Resumable': '1.0.0',
        'Upload-Offset': '0',
        'Content-Type': 'application/offset+octet-stream',
      },
      data: bytes,
    });
    expect(sent.status(), await sent.text()).toBeLessThan(300);
    const { location } = (await sent.json()) as { location: string };
    return { location, size: bytes.length };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A video of the set on one day, pointing at an uploaded file. */
export async function addVideo(
  api: APIRequestContext,
  setId: number,
  week: number,
  day: number,
  upload: { location: string; size: number },
): Promise<number> {
  const video = await api.post('/api/video', {
    data: {
      title: `Seated march ${week}.${day}`,
      description: 'Marching on the spot, seated',
      file_location_path: upload.location,
      file_size: upload.size,
      video_thumbnail_url: 'processing....',
      fitness_video_set_id: setId,
      day_number: day,
      week_number: week,
      video_length: '0',
    },
  });
  expect(video.status(), await video.text()).toBeLessThan(300);
  return ((await video.json()) as { video_id: number }).video_id;
}

/**
 * A view recorded today, the way it really happens: a set with a real uploaded video, a
 * participant with a tablet enrolled on it, and the tablet (signed in with the device API)
 * reporting the video seen. The dashboard then has a chart and its data table.
 */
export async function recordViewToday(api: APIRequestContext): Promise<void> {
  const set = await addVideoSetThroughApi(api, 1, 1);
  const video_id = set.video_ids[0]!;
  const { participant, device } = await addParticipant(api);
  await enrol(api, participant.participant_id, set.fitness_video_set_id);
  const tablet = await api.get(`/uuid/${device.uuid}`);
  expect(tablet.status(), await tablet.text()).toBe(200);
  const { auth_token } = (await tablet.json()) as { auth_token: string };
  const viewed = await api.post(
    `/api/videoset/view/${set.fitness_video_set_id}/participant/${participant.participant_id}`,
    {
      headers: { Authorization: `Bearer ${auth_token}` },
      data: { day: '1', week: '1', videoIds: [String(video_id)] },
    },
  );
  expect(viewed.status(), await viewed.text()).toBe(200);
}

/**
 * The participant's tablet switched on without Google's push service: it signs in (call 1) and
 * asks for today's video with its token (call 4), but never registers a push token (call 2), so
 * no reminder can reach it and the follow-up worklist lists the participant as "Reminders
 * failing" (a participant enrolled today whose tablet works is on track, and not listed).
 */
export async function tabletWithoutPushToken(
  api: APIRequestContext,
  device: AuthorisedDevice,
  participantId: number,
  setId: number,
): Promise<void> {
  const tablet = await api.get(`/uuid/${device.uuid}`);
  expect(tablet.status(), await tablet.text()).toBe(200);
  const { auth_token } = (await tablet.json()) as { auth_token: string };
  const today = await api.get(`/api/videoset/today/${setId}/participant/${participantId}`, {
    headers: { Authorization: `Bearer ${auth_token}` },
  });
  expect(today.status(), await today.text()).toBe(200);
}
