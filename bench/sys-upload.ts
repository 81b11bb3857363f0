/**
 * A 1 GiB upload through the tus endpoint /companion of a real server on loopback, against
 * writing the same bytes to a file on the same disk with fs streams (read the same source file,
 * write a new one), in turns, median of a few rounds each.
 *
 * The server checks a finished upload with ffprobe and a decode of its first frame, and refuses
 * anything that is not a video. The file is therefore a real MP4 (ffmpeg, moov at the front)
 * followed by a `free` box (ISO BMFF's padding box, which players skip) filling it to 1 GiB with
 * random bytes: every byte is transferred and stored, and the check does what it does for any
 * video, reading the header and one frame. Its share is reported beside the figure.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  createReadStream,
  createWriteStream,
  existsSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Benchmark, BenchRow } from './lib/row.js';
import { writeTestVideo } from '../apps/server/test/test-video-file.js';
import {
  createAdmin,
  createDataDir,
  formatNumber,
  machine,
  median,
  signIn,
  startServer,
} from './sys-lib/server.js';
import { CHUNK_BYTES, uploadFile } from './sys-lib/tus.js';

const FILE_BYTES = 1024 ** 3;
const ROUNDS = 3;
const RATIO_GOAL = 0.6;

/** The 1 GiB video, made once per machine (kept in the temporary directory between runs). */
function paddedVideo(): string {
  const file = path.join(os.tmpdir(), 'pathway-bench-1gib.mp4');
  if (existsSync(file) && statSync(file).size === FILE_BYTES) return file;
  const small = path.join(os.tmpdir(), `pathway-bench-small-${process.pid}.mp4`);
  writeTestVideo(small, { seconds: 10, size: '1280x720', faststart: true });
  const video = readFileSync(small);
  rmSync(small);
  const padding = FILE_BYTES - video.length;
  const fd = openSync(`${file}.tmp`, 'w');
  try {
    writeSync(fd, video);
    const header = Buffer.alloc(8);
    header.writeUInt32BE(padding, 0);
    header.write('free', 4, 'latin1');
    writeSync(fd, header);
    const block = randomBytes(CHUNK_BYTES);
    for (let left = padding - 8; left > 0; left -= block.length)
      writeSync(fd, block, 0, Math.min(left, block.length));
  } finally {
    closeSync(fd);
  }
  execFileSync('mv', [`${file}.tmp`, file]);
  return file;
}

const mbPerSecond = (bytes: number, ms: number) => bytes / (1024 * 1024) / (ms / 1000);

const sysUpload: Benchmark = async ({ storage, postgresUrl }) => {
  const source = paddedVideo();
  const data = await createDataDir(storage, postgresUrl);
  try {
    const handle = await data.open();
    const admin = await createAdmin(handle);
    await handle.close();
    const server = await startServer({ ...data.env, MAX_UPLOAD_BYTES: String(2 * FILE_BYTES) });
    const uploads: number[] = [];
    const checks: number[] = [];
    const writes: number[] = [];
    try {
      const cookie = await signIn(server.url, admin);
      for (let round = 0; round < ROUNDS; round += 1) {
        const upload = await uploadFile(server.url, cookie, source);
        if (upload.body.file_size !== FILE_BYTES)
          throw new Error(`the server stored ${upload.body.file_size} bytes`);
        uploads.push(upload.totalMs);
        checks.push(upload.finishMs);

        // The same bytes, the same disk (the data directory), the same streams the tus file store uses.
        const copy = path.join(data.dataDir, `copy-${round}.bin`);
        const startedAt = performance.now();
        await pipeline(createReadStream(source), createWriteStream(copy));
        writes.push(performance.now() - startedAt);
        rmSync(copy);
      }
    } finally {
      await server.stop();
    }

    const uploadRate = mbPerSecond(FILE_BYTES, median(uploads));
    const diskRate = mbPerSecond(FILE_BYTES, median(writes));
    const ratio = uploadRate / diskRate;
    const mode = storage === 'pglite' ? 'PGlite' : 'PostgreSQL 15';
    const conditions = `${mode}, files on disk; 1 GiB (real MP4 + free box of random bytes), 8 MiB tus PATCHes over loopback, median of ${ROUNDS}; ${machine()}`;
    const rows: BenchRow[] = [
      {
        figure: 'upload of 1 GiB through /companion vs writing the same bytes to disk',
        value: `${formatNumber(ratio, 2)}x`,
        goal: `≥ ${RATIO_GOAL}x`,
        met: ratio >= RATIO_GOAL,
        conditions: `${conditions}; upload ${formatNumber(uploadRate, 0)} MB/s, disk ${formatNumber(diskRate, 0)} MB/s`,
      },
      {
        figure: 'upload of 1 GiB through /companion (creation to finishing answer, check included)',
        value: `${formatNumber(uploadRate, 0)} MB/s`,
        goal: '',
        met: null,
        conditions: `${conditions}; each: ${uploads.map((ms) => (ms / 1000).toFixed(2)).join(', ')} s, of which the finishing check ${checks.map((ms) => (ms / 1000).toFixed(2)).join(', ')} s`,
      },
      {
        figure: 'writing the same 1 GiB to a file on the same disk (fs streams, reference)',
        value: `${formatNumber(diskRate, 0)} MB/s`,
        goal: '',
        met: null,
        conditions: `same source file (in the page cache, as for the upload), fs streams with their default 64 KiB chunks (what the server writes per socket read), no fsync on either side; each: ${writes.map((ms) => (ms / 1000).toFixed(2)).join(', ')} s`,
      },
    ];
    return rows;
  } finally {
    await data.remove();
  }
};

export default sysUpload;
