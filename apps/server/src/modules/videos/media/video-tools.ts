import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { limits } from '@pathway/contract';
import type { VideoTools } from '../../../lib/video-tools.js';

export type { VideoTools };

function onPath(name: string, pathVariable: string | undefined): string | undefined {
  for (const dir of (pathVariable ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

function fromNpm(packageName: string): string | undefined {
  try {
    // These packages throw at load time on a platform they have no binary for.
    const resolved = createRequire(import.meta.url)(packageName) as { path?: string };
    if (!resolved.path) return undefined;
    accessSync(resolved.path, constants.X_OK);
    return resolved.path;
  } catch {
    return undefined;
  }
}

/** Resolved once at start: the system's binaries first (kept up to date by the OS), else npm's. */
export function resolveVideoTools(env: NodeJS.ProcessEnv = process.env): VideoTools {
  const systemFfmpeg = onPath('ffmpeg', env.PATH);
  const systemFfprobe = onPath('ffprobe', env.PATH);
  if (systemFfmpeg && systemFfprobe)
    return { ffmpeg: systemFfmpeg, ffprobe: systemFfprobe, source: 'system' };
  const ffmpeg = fromNpm('@ffmpeg-installer/ffmpeg');
  const ffprobe = fromNpm('@ffprobe-installer/ffprobe');
  if (ffmpeg && ffprobe) return { ffmpeg, ffprobe, source: 'npm' };
  throw new Error(
    'ffmpeg and ffprobe were found neither on PATH nor in node_modules (@ffmpeg-installer, @ffprobe-installer)',
  );
}

/** The input is not a video a tablet or a browser can play. */
export class NotPlayableError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'NotPlayableError';
  }
}

/**
 * Containers we accept (demuxer names). Everything else (images, playlists, concat lists, raw
 * streams) is refused before it is parsed: a playlist could make ffmpeg read other files.
 */
const ALLOWED_DEMUXERS = 'mov,matroska,webm,avi,mpegts';

function inputArgs(input: string): string[] {
  const protocols = /^https?:\/\//.test(input) ? 'http,https,tcp,tls' : 'file';
  return ['-protocol_whitelist', protocols, '-format_whitelist', ALLOWED_DEMUXERS];
}

interface RunResult {
  stdout: string;
  stderr: string;
}

function run(binary: string, args: string[], timeoutMs: number): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    execFile(
      binary,
      args,
      { timeout: timeoutMs, maxBuffer: 8 * 1024 * 1024, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        if (error) {
          const failure = error as Error & { stderr?: string; killed?: boolean };
          failure.stderr = stderr;
          reject(failure);
          return;
        }
        resolve({ stdout, stderr });
      },
    );
  });
}

export interface VideoProbe {
  formatName: string;
  contentType: string;
  durationSeconds: number;
  width: number;
  height: number;
  videoCodec: string;
}

interface FfprobeOutput {
  format?: { format_name?: string; duration?: string; tags?: Record<string, string> };
  streams?: {
    codec_type?: string;
    codec_name?: string;
    width?: number;
    height?: number;
    duration?: string;
    disposition?: { attached_pic?: number };
  }[];
}

function contentTypeOf(output: FfprobeOutput): string {
  const format = output.format?.format_name ?? '';
  const codecs = (output.streams ?? []).map((s) => s.codec_name ?? '');
  if (format.startsWith('mov'))
    return output.format?.tags?.major_brand?.trim() === 'qt' ? 'video/quicktime' : 'video/mp4';
  if (format.startsWith('matroska')) {
    const webm = codecs.every((c) => ['vp8', 'vp9', 'av1', 'opus', 'vorbis'].includes(c));
    return webm ? 'video/webm' : 'video/x-matroska';
  }
  if (format === 'avi') return 'video/x-msvideo';
  if (format === 'mpegts') return 'video/mp2t';
  return 'application/octet-stream';
}

/** Reads the container and streams; refuses what is not a video with a duration. */
export async function probeVideo(tools: VideoTools, input: string): Promise<VideoProbe> {
  let output: FfprobeOutput;
  try {
    const { stdout } = await run(
      tools.ffprobe,
      ['-v', 'error', ...inputArgs(input), '-print_format', 'json', '-show_format', '-show_streams', input],
      60_000,
    );
    output = JSON.parse(stdout) as FfprobeOutput;
  } catch (error) {
    throw new NotPlayableError(
      `ffprobe refused the file: ${firstLine((error as { stderr?: string }).stderr)}`,
    );
  }
  const stream = (output.streams ?? []).find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  if (!stream) throw new NotPlayableError('no video stream');
  const duration = Number(output.format?.duration ?? stream.duration);
  if (!Number.isFinite(duration) || duration <= 0) throw new NotPlayableError('no duration');
  if (!stream.width || !stream.height) throw new NotPlayableError('no picture size');
  return {
    formatName: output.format?.format_name ?? '',
    contentType: contentTypeOf(output),
    durationSeconds: duration,
    width: stream.width,
    height: stream.height,
    videoCodec: stream.codec_name ?? '',
  };
}

/** Probes, then decodes the first frame: a file whose pictures cannot be decoded is not playable. */
export async function checkPlayable(tools: VideoTools, input: string): Promise<VideoProbe> {
  const probe = await probeVideo(tools, input);
  try {
    await run(
      tools.ffmpeg,
      [
        '-nostdin',
        '-v',
        'error',
        ...inputArgs(input),
        '-i',
        input,
        '-map',
        '0:v:0',
        '-frames:v',
        '1',
        '-f',
        'null',
        '-',
      ],
      120_000,
    );
  } catch (error) {
    throw new NotPlayableError(
      `the first frame does not decode: ${firstLine((error as { stderr?: string }).stderr)}`,
    );
  }
  return probe;
}

/**
 * One decode, two pictures: the 100x80 thumbnail (cropped to fill, as the console shows it) and a
 * poster for the player, at most 1280 wide. Taken a little way in: first frames are often black.
 */
export async function extractFrames(
  tools: VideoTools,
  input: string,
  durationSeconds: number,
  out: { thumbnail: string; poster: string },
): Promise<void> {
  const w = limits.thumbnailWidth;
  const h = limits.thumbnailHeight;
  const attempt = (at: number) =>
    run(
      tools.ffmpeg,
      [
        '-nostdin',
        '-v',
        'error',
        '-y',
        ...inputArgs(input),
        '-ss',
        at.toFixed(3),
        '-i',
        input,
        '-map',
        '0:v:0',
        '-frames:v',
        '1',
        '-vf',
        `scale=${w}:${h}:force_original_aspect_ratio=increase,crop=${w}:${h},setsar=1`,
        '-q:v',
        '3',
        out.thumbnail,
        '-map',
        '0:v:0',
        '-frames:v',
        '1',
        '-vf',
        `scale='min(${limits.posterMaxWidth},iw)':-2,setsar=1`,
        '-q:v',
        '3',
        out.poster,
      ],
      300_000,
    );
  const made = async () => {
    const sizes = await Promise.all(
      [out.thumbnail, out.poster].map((f) =>
        stat(f).then(
          (s) => s.size,
          () => 0,
        ),
      ),
    );
    return sizes.every((size) => size > 0);
  };
  const preferred = Math.min(durationSeconds * 0.1, 5);
  try {
    await attempt(preferred);
    if (await made()) return;
  } catch (error) {
    if (preferred === 0) throw error;
  }
  // A seek past the last decodable frame gives no picture (or an error): the start always has one.
  await attempt(0);
  if (!(await made())) throw new NotPlayableError('no frame could be extracted');
}

function firstLine(text: string | undefined): string {
  return (text ?? '').trim().split('\n')[0]?.slice(0, 200) || 'no output';
}
