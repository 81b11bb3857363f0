import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@pathway/contract';
import { openDatabase } from '../../src/db/client.js';
import { EmbeddedDatabaseStopped } from '../../src/db/embedded-stop.js';
import { rowsOf } from '../../src/db/rows.js';
import { freeBytesSync } from '../../src/lib/disk-space.js';
import { participantBody } from '../factories.js';
import { signedInCookie } from '../harness.js';
import { testVideo } from '../media-helpers.js';
import { waitUntil } from '../wait.js';
import {
  insertDevices,
  spawnServerProcess,
  startServerProcess,
  withDatabase,
  type ProcessSite,
} from './helpers.js';
import { requireOfMachine } from '../environment-guard.js';

// DATA_DIR on a small tmpfs of its own (the embedded database, media and logs all on it), filled by
// a file the test writes: every write that meets the full disk answers 503 with the contract's
// message, the server stays up and serves reads, nothing acknowledged before is lost, and once the
// filler is removed writes succeed again. PGlite only: a PostgreSQL deployment's database disk is
// PostgreSQL's own (its SQLSTATE 53100 is mapped to the same 503; README, Disk full).
const TMPFS_MB = 96;
const RESERVE_MB = 8;
const MiB = 1024 * 1024;
const TUS = { 'tus-resumable': '1.0.0' };
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

let mountPoint = '';
let mountRefused = '';
beforeAll(() => {
  mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), 'pathway-disk-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${TMPFS_MB}m,mode=0700`, 'tmpfs', mountPoint], {
      stdio: 'pipe',
    });
  } catch (error) {
    mountRefused = String((error as { stderr?: Buffer }).stderr ?? (error as Error).message).trim();
  }
  requireOfMachine(
    mountRefused ? `cannot mount a tmpfs (${mountRefused}); run as root to test a full disk` : undefined,
  );
});
afterAll(() => {
  if (!mountRefused) execFileSync('umount', ['-l', mountPoint]);
  fs.rmSync(mountPoint, { recursive: true, force: true });
});

/** Grows `file` until the file system refuses another byte (ENOSPC); answers its size. */
function fillDisk(file: string): number {
  const fd = fs.openSync(file, 'a');
  try {
    for (const size of [MiB, 4096, 1]) {
      const chunk = Buffer.alloc(size, 0x5a);
      try {
        for (;;) fs.writeSync(fd, chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  return fs.statSync(file).size;
}

describe('a full disk', () => {
  it('answers 503 to every write, keeps serving reads, loses nothing, and writes again once space is freed', async (t) => {
    const dataDir = path.join(mountPoint, 'server');
    const site: ProcessSite = {
      dataDir,
      env: {
        DATA_DIR: dataDir,
        DISK_RESERVE_MB: String(RESERVE_MB),
        LOGIN_LIMIT_PER_ADDRESS: '100000',
        LOGIN_LIMIT_OVERALL: '100000',
      },
      cleanup: async () => {},
    };
    const { cookie, uuids } = await withDatabase(site, async (ctx) => ({
      cookie: (await signedInCookie(ctx, 'full access')).cookie,
      uuids: await insertDevices(ctx, 100, 'Disk tablet'),
    }));
    let nextDevice = 0;
    let server = await startServerProcess(site.env);
    const filler = path.join(mountPoint, 'filler');
    // Whatever this test ends with: no server left running and the tmpfs empty for the next test.
    t.onTestFinished(async () => {
      if (server.child.exitCode === null && server.child.signalCode === null) await server.stop();
      fs.rmSync(filler, { force: true });
    });
    const startedWith = freeBytesSync(mountPoint);
    const api = (method: string, url: string, body?: unknown, headers: Record<string, string> = {}) =>
      fetch(`${server.url}${url}`, {
        method,
        headers: { cookie, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
        body: body ? JSON.stringify(body) : undefined,
      });
    const addParticipant = () => api('POST', '/api/participant', participantBody(uuids[nextDevice++]!));
    const createUpload = (size: number) =>
      fetch(`${server.url}/companion`, {
        method: 'POST',
        headers: { ...TUS, cookie, 'upload-length': String(size) },
      });
    const patchUpload = (uploadPath: string, offset: number, body: BodyInit) =>
      fetch(`${server.url}${uploadPath}`, {
        method: 'PATCH',
        headers: {
          ...TUS,
          cookie,
          'upload-offset': String(offset),
          'content-type': 'application/offset+octet-stream',
        },
        body,
        duplex: 'half',
      } as RequestInit);
    const expectDiskFull = async (res: Response, what: string) => {
      expect(res.status, what).toBe(503);
      expect(((await res.json()) as { message: string }).message, what).toBe(messages.generic.diskFull);
    };

    // Acknowledged before the disk fills: participants, and a finished upload's bytes.
    const acknowledged: { id: number; last_name: string }[] = [];
    for (let i = 0; i < 10; i++) {
      const body = participantBody(uuids[nextDevice++]!);
      const res = await api('POST', '/api/participant', body);
      expect(res.status).toBe(201);
      acknowledged.push({
        id: ((await res.json()) as { participant_id: number }).participant_id,
        last_name: String(body.last_name),
      });
    }
    const video = testVideo({ seconds: 2 });
    const first = await createUpload(video.length);
    expect(first.status).toBe(201);
    const firstPath = new URL(first.headers.get('location')!).pathname;
    const finished = await patchUpload(firstPath, 0, new Uint8Array(video));
    expect(finished.status).toBe(200);
    const { location } = (await finished.json()) as { location: string };

    // 1. An upload whose bytes run out of space half-way: the bytes are streaming when a filler
    //    file takes every free block, so the write itself meets ENOSPC.
    const big = testVideo({ seconds: 3, size: '320x240', noise: true });
    const second = await createUpload(big.length);
    expect(second.status).toBe(201);
    const secondPath = new URL(second.headers.get('location')!).pathname;
    const secondFile = path.join(dataDir, 'media', 'uploads', secondPath.split('/').pop()!);
    let feed!: ReadableStreamDefaultController<Uint8Array>;
    const streamed = patchUpload(
      secondPath,
      0,
      new ReadableStream<Uint8Array>({ start: (c) => void (feed = c) }),
    );
    const firstPart = Math.floor(big.length / 3);
    feed.enqueue(new Uint8Array(big.subarray(0, firstPart)));
    await waitUntil(
      () => fs.existsSync(secondFile) && fs.statSync(secondFile).size === firstPart,
      'the first third stored',
    );
    fillDisk(filler);
    feed.enqueue(new Uint8Array(big.subarray(firstPart)));
    feed.close();
    await expectDiskFull(await streamed, 'the upload that ran out of space');

    // Back to a little room below the reserve: what the database itself may still write (the
    // sessions and audit records of reads) fits, every new write is refused before it starts.
    fs.truncateSync(filler, fs.statSync(filler).size - (RESERVE_MB / 2) * MiB);
    const freeWhileFull = freeBytesSync(mountPoint);
    expect(freeWhileFull).toBeLessThan(RESERVE_MB * MiB);

    // 2. Writes while the disk is full.
    await expectDiskFull(await addParticipant(), 'adding a participant');
    await expectDiskFull(
      await api('PATCH', `/api/participant/${acknowledged[0]!.id}`, {
        notes: 'Written while the disk was full',
      }),
      'a JSON edit',
    );
    await expectDiskFull(await createUpload(video.length), 'starting an upload');
    const head = await fetch(`${server.url}${secondPath}`, { method: 'HEAD', headers: { ...TUS, cookie } });
    expect(head.status).toBe(200);
    const storedOffset = Number(head.headers.get('upload-offset'));
    expect(storedOffset).toBeGreaterThanOrEqual(firstPart);
    await expectDiskFull(
      await patchUpload(secondPath, storedOffset, new Uint8Array(big.subarray(storedOffset))),
      'resuming the upload',
    );

    // 3. Reads go on: the list, each acknowledged participant, the stored media, health.
    const list = await api('GET', '/api/participant?limit=100');
    expect(list.status).toBe(200);
    const listed = (await list.json()) as { data: { participant_id: number }[] };
    expect(listed.data.map((p) => p.participant_id).sort((a, b) => a - b)).toEqual(
      acknowledged.map((a) => a.id),
    );
    expect(sha256(new Uint8Array(await (await fetch(location)).arrayBuffer()))).toBe(sha256(video));
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    expect(server.child.exitCode).toBeNull();

    // 4. Space freed: writes succeed again, and the upload resumes from what was stored.
    fs.rmSync(filler);
    const after = await addParticipant();
    expect(after.status).toBe(201);
    const edited = await api('PATCH', `/api/participant/${acknowledged[0]!.id}`, {
      notes: 'Written after space was freed',
    });
    expect(edited.status).toBe(200);
    const resumeAt = Number(
      (
        await fetch(`${server.url}${secondPath}`, { method: 'HEAD', headers: { ...TUS, cookie } })
      ).headers.get('upload-offset'),
    );
    const resumed = await patchUpload(secondPath, resumeAt, new Uint8Array(big.subarray(resumeAt)));
    expect(resumed.status).toBe(200);
    const secondLocation = ((await resumed.json()) as { location: string }).location;
    expect(sha256(new Uint8Array(await (await fetch(secondLocation)).arrayBuffer()))).toBe(sha256(big));
    expect(server.output()).not.toMatch(/"statusCode":500|unhandled error/);
    expect(await server.stop()).toBe(0);

    // 5. On disk, after a clean stop and a fresh start: every acknowledged row and media byte.
    const stored = await withDatabase(site, async (ctx) =>
      rowsOf<{ participant_id: number; last_name: string }>(
        await ctx.database.db.execute(
          sql`select participant_id, last_name from participants order by participant_id`,
        ),
      ),
    );
    for (const a of acknowledged)
      expect(stored.find((r) => Number(r.participant_id) === a.id)?.last_name).toBe(a.last_name);
    server = await startServerProcess(site.env);
    expect(
      sha256(
        new Uint8Array(await (await fetch(location.replace(/^https?:\/\/[^/]+/, server.url))).arrayBuffer()),
      ),
    ).toBe(sha256(video));
    expect(await server.stop()).toBe(0);
    console.info(
      `[resilience] disk full (tmpfs ${TMPFS_MB} MiB, reserve ${RESERVE_MB} MiB): ${(startedWith / MiB).toFixed(1)} MiB free after start; ` +
        `upload of ${big.length} bytes stopped at ${storedOffset} with 503 and resumed byte-exact; ` +
        `${(freeWhileFull / MiB).toFixed(1)} MiB free while full: participant, edit, upload start and resume each 503; ` +
        `reads 200; ${acknowledged.length} acknowledged participants and the finished upload intact`,
    );
  }, 300_000);

  it('refuses to start with a clear message when DATA_DIR has no room for the database to open', async () => {
    const dataDir = path.join(mountPoint, 'no-room');
    fs.mkdirSync(dataDir);
    const filler = path.join(mountPoint, 'no-room-filler');
    fillDisk(filler);
    try {
      const { ready, output } = spawnServerProcess({ DATA_DIR: dataDir });
      await expect(ready).rejects.toThrow(/exited with 1/);
      expect(output()).toMatch(
        /MiB free; the embedded database needs at least 16 MiB to open\. Free space there/,
      );
    } finally {
      fs.rmSync(filler);
    }
  });

  it('a write-ahead-log write that fails stops the embedded database cleanly: no hang, 503, nothing lost', async (t) => {
    // Through the product's own database handle, on the same tmpfs. Writes that fit in pages
    // already allocated still produce write-ahead log; forcing segment switches makes PGlite create
    // a new WAL file, which meets the full disk (PostgreSQL would PANIC and restart here).
    const dir = path.join(mountPoint, 'wal');
    const stops: unknown[] = [];
    const handle = await openDatabase({ dataDir: dir, onEmbeddedStop: (reason) => stops.push(reason) });
    await handle.pglite!.exec(`create table kept (id int primary key, v text);
      insert into kept select g, 'acknowledged ' || g from generate_series(1, 2000) g; checkpoint;`);
    const filler = path.join(mountPoint, 'wal-filler');
    t.onTestFinished(() => fs.rmSync(filler, { force: true }));
    fillDisk(filler);
    let failure: unknown;
    for (let i = 1; i <= 64 && failure === undefined; i++) {
      try {
        await handle.pglite!.query(`update kept set v = v where id = $1`, [i]);
        await handle.pglite!.query('select pg_switch_wal()');
      } catch (error) {
        failure = error;
      }
    }
    expect((failure as { code?: string }).code).toBe('53100');
    expect(String((failure as Error).message)).toMatch(/pg_wal/);
    expect(stops).toHaveLength(1);
    // Never sent to the broken instance: it fails at once (a call that reached it could spin for ever).
    const next = await handle.db.execute(sql`select count(*) from kept`).catch((e: unknown) => e);
    expect(next).toBeInstanceOf(Error);
    expect((next as { cause?: unknown }).cause ?? next).toBeInstanceOf(EmbeddedDatabaseStopped);
    await handle.close();
    fs.rmSync(filler);
    // Opened again once there is room: everything committed before is there.
    const reopened = await openDatabase({ dataDir: dir });
    const rows = rowsOf<{ n: number }>(
      await reopened.db.execute(sql`select count(*)::int as n from kept where v like 'acknowledged %'`),
    );
    expect(rows[0]?.n).toBe(2000);
    await reopened.close();
  });
});
