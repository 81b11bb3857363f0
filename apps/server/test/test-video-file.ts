import { execFileSync } from 'node:child_process';

export interface TestVideoShape {
  /** Length in seconds (default 2). */
  seconds?: number;
  /** Frame size, WIDTHxHEIGHT (default 320x240). */
  size?: string;
  /** Frames per second (default 25). */
  rate?: number;
  /** H.264 in MP4 (default) or VP8 in WebM. */
  format?: 'mp4' | 'webm';
  /** Random pixels instead of the test pattern: nothing compresses, so the file is large for its length. */
  noise?: boolean;
  /** The MP4 index at the front, as a phone or an editor that prepares files for the web writes it. */
  faststart?: boolean;
}

/**
 * Writes a real video made by ffmpeg's test source to `file`: the one generator the server tests,
 * the browser tests and the benchmarks share, so every one of them feeds the server a file ffmpeg
 * really made. Returns `file`.
 */
export function writeTestVideo(file: string, shape: TestVideoShape = {}): string {
  const {
    seconds = 2,
    size = '320x240',
    rate = 25,
    format = 'mp4',
    noise = false,
    faststart = false,
  } = shape;
  const source = noise
    ? `nullsrc=s=${size}:d=${seconds}:r=${rate},geq=random(1)*255:128:128`
    : `testsrc=duration=${seconds}:size=${size}:rate=${rate}`;
  const codec =
    format === 'mp4'
      ? [
          '-c:v',
          'libx264',
          '-pix_fmt',
          'yuv420p',
          '-preset',
          'ultrafast',
          ...(faststart ? ['-movflags', '+faststart'] : []),
        ]
      : ['-c:v', 'libvpx', '-b:v', '200k'];
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', source, ...codec, file]);
  return file;
}
