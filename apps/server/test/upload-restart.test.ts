import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../src/modules/auth/totp.js';
import { saveAsVideoAndAwaitThumbnail, testVideo } from './media-helpers.js';
import { keepLogs } from './harness.js';
import {
  processDatabaseEnv,
  removeDataDir,
  runCli,
  startServerProcess,
  type ServerProcess,
} from './process.js';

// The real server process: an upload started before a restart resumes after it, where it stopped.
let dataDir: string;
let env: Record<string, string>;
let dropDb: () => Promise<void>;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'pathway-upload-restart-'));
  const db = await processDatabaseEnv();
  env = { DATA_DIR: dataDir, ...db.env };
  dropDb = db.drop;
});
afterAll(async () => {
  await dropDb();
  keepLogs(dataDir);
  removeDataDir(dataDir);
});

const TUS = { 'tus-resumable': '1.0.0' };

describe('upload across a server restart', () => {
  it('resumes after the server restarted, stores the same bytes, and the saved video gets its thumbnail', async () => {
    const created = await runCli(
      ['create-admin', '--username', 'video.admin', '--password', 'correct horse', '--json'],
      env,
    );
    expect(created.code, created.stderr).toBe(0);
    const admin = JSON.parse(created.stdout) as { user_name: string; totp_secret: string };
    const bytes = testVideo({ seconds: 2, size: '160x120', noise: true });
    const half = Math.floor(bytes.length / 2);

    let server: ServerProcess = await startServerProcess(env);
    let cookie = '';
    let uploadPath = '';
    try {
      const login = await fetch(`${server.url}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          user_name: admin.user_name,
          password: 'correct horse',
          mfa_token: totpCode(admin.user_name, admin.totp_secret),
        }),
      });
      expect(login.status).toBe(200);
      cookie = login.headers.get('set-cookie')!.split(';')[0]!;
      const start = await fetch(`${server.url}/companion`, {
        method: 'POST',
        headers: { ...TUS, cookie, 'upload-length': String(bytes.length) },
      });
      expect(start.status).toBe(201);
      uploadPath = new URL(start.headers.get('location')!).pathname;
      const first = await fetch(`${server.url}${uploadPath}`, {
        method: 'PATCH',
        headers: { ...TUS, cookie, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
        body: new Uint8Array(bytes.subarray(0, half)),
      });
      expect(first.status).toBe(204);
    } finally {
      expect(await server.stop()).toBe(0);
    }

    server = await startServerProcess(env);
    try {
      const head = await fetch(`${server.url}${uploadPath}`, { method: 'HEAD', headers: { ...TUS, cookie } });
      expect(head.status).toBe(200);
      expect(Number(head.headers.get('upload-offset'))).toBe(half);
      const rest = await fetch(`${server.url}${uploadPath}`, {
        method: 'PATCH',
        headers: {
          ...TUS,
          cookie,
          'upload-offset': String(half),
          'content-type': 'application/offset+octet-stream',
        },
        body: new Uint8Array(bytes.subarray(half)),
      });
      expect(rest.status).toBe(200);
      const { location } = (await rest.json()) as { location: string };
      const stored = Buffer.from(await (await fetch(location)).arrayBuffer());
      expect(Buffer.compare(stored, bytes)).toBe(0);

      const thumbnailUrl = await saveAsVideoAndAwaitThumbnail(server.url, cookie, location, {
        set: 'Restarted',
        title: 'After restart',
        description: 'Still here',
      });
      expect(thumbnailUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/media\/thumbs\/.+\.jpg$/);
    } finally {
      await server.stop();
    }
  }, 300_000);
});
