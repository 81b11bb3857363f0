import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testImage, testVideo } from '../../../../test/media-helpers.js';
import {
  NotPlayableError,
  checkPlayable,
  extractFrames,
  probeVideo,
  resolveVideoTools,
} from './video-tools.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'pathway-tools-'));
function file(name: string, bytes: Buffer | string): string {
  const target = path.join(dir, name);
  writeFileSync(target, bytes);
  return target;
}

describe('video tools', () => {
  it('prefer the system ffmpeg and ffprobe', () => {
    const tools = resolveVideoTools();
    expect(tools.source).toBe('system');
    expect(tools.ffmpeg).toMatch(/ffmpeg$/);
  });

  it('fall back to the binaries shipped in npm packages, which work', async () => {
    const tools = resolveVideoTools({ PATH: '' });
    expect(tools.source).toBe('npm');
    expect(tools.ffprobe).toContain('node_modules');
    const input = file('fallback.mp4', testVideo());
    expect(await checkPlayable(tools, input)).toMatchObject({ width: 320, height: 240, durationSeconds: 2 });
    const out = { thumbnail: path.join(dir, 'n-thumb.jpg'), poster: path.join(dir, 'n-poster.jpg') };
    await extractFrames(tools, input, 2, out);
    expect(statSync(out.thumbnail).size).toBeGreaterThan(0);
  });

  it('accept MP4 and WebM and say what they are', async () => {
    const tools = resolveVideoTools();
    expect(await probeVideo(tools, file('v.mp4', testVideo()))).toMatchObject({
      contentType: 'video/mp4',
      videoCodec: 'h264',
    });
    expect(await probeVideo(tools, file('v.webm', testVideo({ format: 'webm' })))).toMatchObject({
      contentType: 'video/webm',
      videoCodec: 'vp8',
    });
  });

  it('refuse what is not a playable video', async () => {
    const tools = resolveVideoTools();
    const video = testVideo();
    const cases = {
      'text.mp4': Buffer.from('hello, this is text\n'.repeat(20)),
      'picture.jpg': testImage(),
      'empty.mp4': Buffer.alloc(0),
      'truncated.mp4': video.subarray(0, Math.floor(video.length / 3)),
      // A playlist would make ffmpeg open other files: it is never even parsed.
      'playlist.m3u8': `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\n${file('segment.mp4', video)}\n#EXT-X-ENDLIST\n`,
    };
    for (const [name, bytes] of Object.entries(cases)) {
      await expect(checkPlayable(tools, file(name, bytes)), name).rejects.toBeInstanceOf(NotPlayableError);
    }
  });
});
