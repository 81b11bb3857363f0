import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { AppContext } from '../context.js';
import { videoUploads } from '../db/schema.js';
import { checkPlayable, VideoService, VideoSetService } from '../modules/videos/index.js';
import type { DemoSet } from './demo-participants.js';

const run = promisify(execFile);

const FONT = '/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf';

const EXERCISES: [string, string][] = [
  ['Seated marching', 'Sit tall near the front of a sturdy chair and march your knees up and down in turn.'],
  ['Heel raises', 'Hold the back of a chair and rise onto your toes, then lower slowly.'],
  ['Sit to stand', 'Stand up from the chair without using your hands, then sit down with control.'],
  ['Calf stretch', 'One foot forward, back heel down: lean in until you feel a gentle stretch in the calf.'],
  [
    'Walking intervals',
    'Walk at a steady pace until the leg discomfort is moderate, rest until it passes, repeat.',
  ],
  ['Ankle circles', 'Seated, lift one foot and draw slow circles with the ankle, ten each way.'],
  [
    'Step-ups',
    'Step up onto the bottom stair and down again, holding the rail, leading with each leg in turn.',
  ],
];

const SETS = [
  { set_name: 'Gentle start (PAD programme)', number_of_weeks: 4, videos_in_week: 3, hue: 0 },
  { set_name: 'Building strength (PAD programme)', number_of_weeks: 5, videos_in_week: 4, hue: 140 },
];

/** A short exercise-video stand-in: a moving test pattern with its day written on it, and a tone. */
async function makeClip(ctx: AppContext, file: string, label: string, hue: number): Promise<void> {
  const text = `,drawtext=fontfile=${FONT}:text='${label}':fontsize=30:fontcolor=white:box=1:boxcolor=black@0.6:boxborderw=10:x=(w-tw)/2:y=h-th-24`;
  if (existsSync(FONT)) {
    try {
      return await encodeClip(ctx, file, hue, text);
    } catch {
      // An ffmpeg built without libfreetype: the same clip without its caption.
    }
  }
  await encodeClip(ctx, file, hue, '');
}

async function encodeClip(ctx: AppContext, file: string, hue: number, text: string): Promise<void> {
  await run(ctx.videoTools.ffmpeg, [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    // 15 frames a second: enough for a moving test pattern, and a third less encoding than 25, for
    // the 32 clips of a seed.
    'testsrc2=size=480x270:rate=15:duration=5',
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=${330 + hue}:duration=5`,
    '-vf',
    `hue=h=${hue}${text}`,
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    '32',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-b:a',
    '48k',
    '-shortest',
    '-movflags',
    '+faststart',
    file,
  ]);
}

/**
 * Two video sets with a short generated video on every day, stored and saved through the video
 * library as an upload would be; their thumbnails are made by its thumbnail job.
 */
export async function createDemoVideoSets(
  ctx: AppContext,
  organisationId: number,
): Promise<{ sets: DemoSet[]; videos: number }> {
  // The demo's library is the organisation's own, made as its admins would make it.
  const editor = { organisationId, systemAdministrator: false, everySite: true };
  const setService = new VideoSetService(ctx);
  const videoService = new VideoService(ctx);
  const origins = { origin: ctx.config.publicUrl ?? 'http://localhost', accepted: [] };
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'pathway-demo-'));
  const sets: DemoSet[] = [];
  let count = 0;
  try {
    for (const spec of SETS) {
      const set = await setService.create({ ...spec, shared: false }, editor);
      const videoIdAt: (number | undefined)[] = [];
      for (let week = 1; week <= spec.number_of_weeks; week++) {
        for (let day = 1; day <= spec.videos_in_week; day++) {
          const index = (week - 1) * spec.videos_in_week + day;
          const [title, description] = EXERCISES[(index - 1) % EXERCISES.length]!;
          const file = path.join(workDir, `${set.fitness_video_set_id}-${index}.mp4`);
          await makeClip(ctx, file, `Week ${week} - Day ${day}`, (spec.hue + index * 11) % 360);
          const key = `uploads/${randomBytes(16).toString('hex')}`;
          await ctx.media.blobs.putFile(key, file, 'video/mp4');
          const probe = await checkPlayable(ctx.videoTools, await ctx.media.blobs.inputFor(key));
          const now = ctx.clock.now();
          await ctx.db.insert(videoUploads).values({
            organisation_id: organisationId,
            storage_key: key,
            status: 'ready',
            file_size: (await stat(file)).size,
            content_type: probe.contentType,
            duration_seconds: probe.durationSeconds,
            created_at: now,
            last_activity_at: now,
            finished_at: now,
          });
          const video = await videoService.create(
            {
              title,
              description: `Week ${week}, day ${day}. ${description} Stop and rest if the pain in your legs becomes strong.`,
              file_location_path: key,
              fitness_video_set_id: set.fitness_video_set_id,
              week_number: week,
              day_number: day,
            },
            origins,
            editor,
          );
          videoIdAt[index] = video.video_id;
          count++;
        }
      }
      sets.push({
        fitness_video_set_id: set.fitness_video_set_id,
        shape: { number_of_weeks: spec.number_of_weeks, videos_in_week: spec.videos_in_week },
        videoIdAt,
      });
    }
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
  return { sets, videos: count };
}
