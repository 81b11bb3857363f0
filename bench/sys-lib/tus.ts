/**
 * A tus client as the console's Uppy speaks it: create the upload, then PATCH 8 MiB requests in
 * turn, each streamed from the file on disk (as a browser streams a File) over a kept-alive
 * connection.
 */
import { createReadStream, statSync } from 'node:fs';
import http from 'node:http';
import { pipeline } from 'node:stream/promises';

export const CHUNK_BYTES = 8 * 1024 * 1024;

export interface TusUpload {
  /** The finishing answer: { location, file_size, duration_seconds }. */
  body: { location: string; file_size: number; duration_seconds: number };
  /** From the creation request to the finishing answer. */
  totalMs: number;
  /** From the last byte sent to the finishing answer: the server's check of the file. */
  finishMs: number;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function request(
  url: string,
  options: http.RequestOptions,
  body?: { file: string; start: number; end: number },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string; lastByteSentAt: number }> {
  return new Promise((resolve, reject) => {
    let lastByteSentAt = performance.now();
    const req = http.request(url, { ...options, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, lastByteSentAt }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.on('finish', () => (lastByteSentAt = performance.now()));
    if (!body) {
      req.end();
      return;
    }
    pipeline(
      createReadStream(body.file, { start: body.start, end: body.end - 1, highWaterMark: 1024 * 1024 }),
      req,
    ).catch(reject);
  });
}

export async function uploadFile(baseUrl: string, cookie: string, file: string): Promise<TusUpload> {
  const size = statSync(file).size;
  const startedAt = performance.now();
  const tus = { 'tus-resumable': '1.0.0', cookie };
  const created = await request(`${baseUrl}/companion`, {
    method: 'POST',
    headers: {
      ...tus,
      'upload-length': String(size),
      'upload-metadata': `filename ${Buffer.from('exercise.mp4').toString('base64')}`,
    },
  });
  if (created.status !== 201) throw new Error(`tus creation: ${created.status} ${created.text}`);
  const uploadUrl = new URL(created.headers.location!, baseUrl);
  const target = `${baseUrl}${uploadUrl.pathname}`;
  let offset = 0;
  for (;;) {
    const end = Math.min(size, offset + CHUNK_BYTES);
    const res = await request(
      target,
      {
        method: 'PATCH',
        headers: {
          ...tus,
          'upload-offset': String(offset),
          'content-type': 'application/offset+octet-stream',
          'content-length': String(end - offset),
        },
      },
      { file, start: offset, end },
    );
    if (res.status >= 300) throw new Error(`tus PATCH at ${offset}: ${res.status} ${res.text}`);
    offset = Number(res.headers['upload-offset']);
    if (offset >= size) {
      const finishedAt = performance.now();
      return {
        body: JSON.parse(res.text) as TusUpload['body'],
        totalMs: finishedAt - startedAt,
        finishMs: finishedAt - res.lastByteSentAt,
      };
    }
  }
}
