import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { writeTestVideo } from './test-video-file.js';

const cache = new Map<string, Buffer>();

/**
 * A real video made by ffmpeg's test source (H.264 in MP4 unless told otherwise), cached per
 * shape for the test process. Small by default: 2 s at 320x240.
 */
export function testVideo(
  options: { seconds?: number; size?: string; format?: 'mp4' | 'webm'; noise?: boolean } = {},
): Buffer {
  const { seconds = 2, size = '320x240', format = 'mp4', noise = false } = options;
  const id = `${seconds}-${size}-${format}-${noise}`;
  const cached = cache.get(id);
  if (cached) return cached;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pathway-video-'));
  const file = writeTestVideo(path.join(dir, `test.${format}`), { seconds, size, format, noise });
  const bytes = readFileSync(file);
  cache.set(id, bytes);
  return bytes;
}

/** A JPEG picture: a real image file that is not a video. */
export function testImage(): Buffer {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pathway-image-'));
  const file = path.join(dir, 'picture.jpg');
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=320x240',
    '-frames:v',
    '1',
    file,
  ]);
  return readFileSync(file);
}

const TUS = { 'tus-resumable': '1.0.0' };

export interface UploadResult {
  status: number;
  uploadUrl: string;
  body: { location?: string; message?: string; file_size?: number; duration_seconds?: number };
}

/**
 * Uploads bytes through the tus endpoint of an app (in-process inject), in chunks, exactly as the
 * console's uploader does: create, then PATCH from each offset.
 */
export async function uploadThroughTus(
  app: FastifyInstance,
  cookie: string,
  bytes: Buffer,
  chunkSize = 64 * 1024,
): Promise<UploadResult> {
  const created = await app.inject({
    method: 'POST',
    url: '/companion',
    headers: {
      ...TUS,
      cookie,
      'upload-length': String(bytes.length),
      'upload-metadata': `filename ${Buffer.from('exercise.mp4').toString('base64')}`,
    },
  });
  if (created.statusCode !== 201)
    return { status: created.statusCode, uploadUrl: '', body: safeJson(created.body) };
  const uploadUrl = created.headers.location as string;
  const urlPath = new URL(uploadUrl).pathname;
  let offset = 0;
  let last = created;
  while (offset < bytes.length) {
    const chunk = bytes.subarray(offset, offset + chunkSize);
    last = await app.inject({
      method: 'PATCH',
      url: urlPath,
      headers: {
        ...TUS,
        cookie,
        'upload-offset': String(offset),
        'content-type': 'application/offset+octet-stream',
      },
      payload: chunk,
    });
    if (last.statusCode >= 300) break;
    offset = Number(last.headers['upload-offset']);
  }
  return { status: last.statusCode, uploadUrl, body: safeJson(last.body) };
}

function safeJson(text: string): UploadResult['body'] {
  try {
    return JSON.parse(text);
  } catch {
    return { message: text };
  }
}

/** Polls until `check` returns a value (not undefined/false) or the time is up. */
// A deadline, not a timing assertion: jobs run real ffmpeg, and CI machines may be busy.
export async function eventually<T>(check: () => Promise<T | undefined | false>, ms = 150_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Over real HTTP: saves an uploaded file (its tus `location`) as the only video of a new one-day
 * set, and waits for the worker's thumbnail. Answers the thumbnail's URL once it is made.
 */
export async function saveAsVideoAndAwaitThumbnail(
  serverUrl: string,
  cookie: string,
  location: string,
  names: { set: string; title: string; description: string },
): Promise<string> {
  const set = await fetch(`${serverUrl}/api/videoset`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ set_name: names.set, number_of_weeks: 1, videos_in_week: 1 }),
  });
  const { fitness_video_set_id } = (await set.json()) as { fitness_video_set_id: number };
  const saved = await fetch(`${serverUrl}/api/video`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({
      title: names.title,
      description: names.description,
      file_location_path: location,
      fitness_video_set_id,
      week_number: 1,
      day_number: 1,
    }),
  });
  if (saved.status !== 201)
    throw new Error(`saving the video answered ${saved.status}: ${await saved.text()}`);
  return eventually(async () => {
    const thumbs = (await (
      await fetch(`${serverUrl}/api/video/thumbs/${fitness_video_set_id}`, { headers: { cookie } })
    ).json()) as Record<string, { video_thumbnail_url: string }[]>;
    // Until the thumbnail is made the answer holds a placeholder ('processing....'), not a URL.
    const url = thumbs['1']?.[0]?.video_thumbnail_url ?? '';
    return url.includes('/media/thumbs/') ? url : undefined;
  });
}
