import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import * as tar from 'tar';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { messages } from '@pathway/contract';
import { rowsOf } from '../src/db/rows.js';
import { describeOn } from './database-project.js';
import { signedInCookie } from './harness.js';
import { cliBundle, repoRoot, runCli } from './process.js';
import {
  AcknowledgedWrites,
  insertDevices,
  processSite,
  startServerProcess,
  withDatabase,
  type ProcessSite,
} from './resilience/helpers.js';

// The operator's backup: `npm run cli -- backup` against a server that runs and takes writes, then
// `restore` into a new directory, compared row by row and byte by byte.
let site: ProcessSite;
let work: string;
beforeAll(async () => {
  site = await processSite('backup');
  work = mkdtempSync(path.join(os.tmpdir(), 'pathway-backups-'));
});
afterAll(async () => {
  await site.cleanup();
  rmSync(work, { recursive: true, force: true });
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Every row of every table of ours, as text, by table. */
async function rowsByTable(site: ProcessSite): Promise<Map<string, Set<string>>> {
  return withDatabase(site, async (ctx) => {
    const tables = rowsOf<{ t: string }>(
      await ctx.database.db.execute(
        sql`select table_name as t from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
      ),
    ).map((r) => r.t);
    const result = new Map<string, Set<string>>();
    for (const t of tables) {
      // A tablet's site follows the participant given it, set in place when a write after the copy
      // gives it to someone: the rest of its row is compared.
      const row = t === 'authorized_devices' ? sql`(to_jsonb(x) - 'site_id')::text` : sql`(x.*)::text`;
      const rows = rowsOf<{ r: string }>(
        await ctx.database.db.execute(sql`select ${row} as r from ${sql.identifier(t)} x`),
      );
      result.set(t, new Set(rows.map((r) => r.r)));
    }
    return result;
  });
}

function cliProcess(args: string[], env: Record<string, string>) {
  return spawn(process.execPath, [cliBundle, ...args], {
    cwd: repoRoot,
    env: { ...process.env, LOG_TO_STDOUT: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

describeOn('postgres', 'backup with PostgreSQL', () => {
  it('refuses with a message that points at pg_dump', async () => {
    const result = await runCli(['backup', '--out', path.join(work, 'pg.tar')], site.env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(messages.backup.postgres);
    expect(existsSync(path.join(work, 'pg.tar'))).toBe(false);
  });
});

describeOn('pglite', 'backup and restore of the embedded database', () => {
  it('takes a consistent backup while the server serves writes; restore brings back every acknowledged row and every media file byte-identical', async () => {
    // Media files of every kind the store holds, some of them large enough to take a while.
    const media = new Map<string, Buffer>();
    const { cookie, uuids } = await withDatabase(site, async (ctx) => {
      for (const [key, size] of [
        ['uploads/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 6_000_000],
        ['thumbs/one.jpg', 20_000],
        ['posters/one.jpg', 30_000],
      ] as const) {
        const bytes = randomBytes(size);
        const file = path.join(work, `source-${media.size}`);
        writeFileSync(file, bytes);
        await ctx.media.blobs.putFile(key, file, 'application/octet-stream');
        media.set(key, bytes);
      }
      return {
        cookie: (await signedInCookie(ctx, 'full access')).cookie,
        uuids: await insertDevices(ctx, 5000, 'Backup tablet'),
      };
    });

    const server = await startServerProcess(site.env);
    const writes = new AcknowledgedWrites(server.url, cookie, uuids).start();
    let acknowledgedBefore: typeof writes.acknowledged = [];
    const archive = path.join(work, 'under-load.tar');
    try {
      const end = Date.now() + 60_000;
      while (writes.acknowledged.length < 40 && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
      acknowledgedBefore = [...writes.acknowledged];
      expect(acknowledgedBefore.length).toBeGreaterThanOrEqual(40);
      const backup = await runCli(['backup', '--out', archive, '--json'], site.env);
      expect(backup.code, backup.stderr).toBe(0);
      expect(JSON.parse(backup.stdout)).toMatchObject({ file: archive, media_files: 3 });
      // Writes went on during the backup: it did not stop the server.
      expect(writes.acknowledged.length).toBeGreaterThan(acknowledgedBefore.length);
    } finally {
      await writes.stop();
      expect(await server.stop()).toBe(0);
    }

    const restoredDir = path.join(work, 'restored');
    const restore = await runCli(['restore', archive, '--json'], { DATA_DIR: restoredDir });
    expect(restore.code, restore.stderr).toBe(0);
    const keyText = readFileSync(`${site.dataDir}.secrets-key`, 'utf8').trim();
    expect(readFileSync(archive).includes(Buffer.from(keyText))).toBe(false);
    expect((JSON.parse(restore.stdout) as { secrets_key: string }).secrets_key).toMatch(
      new RegExp(
        `^key [\\w-]{8} needed, and the key file ${restoredDir}\\.secrets-key .*has none: before starting the server`,
      ),
    );
    // The secrets key is not in the archive: without it the restored directory does not start, and
    // says what is missing; with the key file put back beside it, it does.
    const keyless = await startServerProcess({ DATA_DIR: restoredDir }).then(
      () => 'started',
      (error: Error) => error.message,
    );
    expect(keyless).toContain(`but there is no key: the key file ${restoredDir}.secrets-key`);
    expect(existsSync(`${restoredDir}.secrets-key`)).toBe(false);
    copyFileSync(`${site.dataDir}.secrets-key`, `${restoredDir}.secrets-key`);
    const restoredSite: ProcessSite = {
      dataDir: restoredDir,
      env: { DATA_DIR: restoredDir },
      cleanup: async () => {},
    };

    // Every media file, byte for byte.
    for (const [key, bytes] of media) {
      expect(sha256(readFileSync(path.join(restoredDir, 'media', key))), key).toBe(sha256(bytes));
    }
    // Every participant acknowledged before the backup began, as written.
    expect(
      await withDatabase(restoredSite, (ctx) =>
        writes
          .missing(ctx)
          .then((m) => m.filter((id) => acknowledgedBefore.some((a) => a.participant_id === id))),
      ),
    ).toEqual([]);
    // Every row of every table is one the live database held (the copy is a moment of it), and the
    // participant tally agrees with the participants it holds: nothing torn.
    const live = await rowsByTable(site);
    const restored = await rowsByTable(restoredSite);
    expect([...restored.keys()].sort()).toEqual([...live.keys()].sort());
    for (const [table, rows] of restored) {
      // Updated in place after the copy by design: the session's last-seen time.
      if (table === 'sessions') continue;
      const absent = [...rows].filter((r) => !live.get(table)!.has(r));
      expect(absent, table).toEqual([]);
    }
    const tally = await withDatabase(restoredSite, async (ctx) =>
      rowsOf<{ ok: boolean }>(
        await ctx.database.db.execute(
          sql`select (select count(*) from participants) = (select coalesce(sum(delta), 0) from participant_tally) as ok`,
        ),
      ),
    );
    expect(tally[0]?.ok).toBe(true);
    console.info(
      `[ops] backup under load: ${acknowledgedBefore.length} participants acknowledged before it, ${writes.acknowledged.length} by the end; ` +
        `restored ${restored.get('participants')!.size} participants, ${media.size} media files byte-identical`,
    );

    // The restored directory is a working server.
    const again = await startServerProcess({ DATA_DIR: restoredDir });
    try {
      expect((await fetch(`${again.url}/readyz`)).status).toBe(200);
      const res = await fetch(`${again.url}/api/participant/${acknowledgedBefore[0]!.participant_id}`, {
        headers: { cookie },
      });
      expect(res.status).toBe(200);
    } finally {
      expect(await again.stop()).toBe(0);
    }

    // Restore refuses a directory that is not empty, and a damaged archive.
    const refused = await runCli(['restore', archive], { DATA_DIR: restoredDir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(messages.backup.notEmpty);

    const unpacked = path.join(work, 'unpacked');
    mkdirSync(unpacked);
    await tar.extract({ file: archive, cwd: unpacked });
    const thumb = path.join(unpacked, 'media/thumbs/one.jpg');
    const bytes = readFileSync(thumb);
    bytes[100] = bytes[100]! ^ 0xff;
    writeFileSync(thumb, bytes);
    const tampered = path.join(work, 'tampered.tar');
    await tar.create({ file: tampered, cwd: unpacked }, readdirSync(unpacked));
    const damaged = await runCli(['restore', tampered], { DATA_DIR: path.join(work, 'from-tampered') });
    expect(damaged.code).toBe(1);
    expect(damaged.stderr).toContain(messages.backup.damaged);
    expect(damaged.stderr).toContain('media/thumbs/one.jpg');
    expect(existsSync(path.join(work, 'from-tampered', 'db'))).toBe(false);
  }, 900_000);

  it('a backup killed half-way leaves no file that restore accepts', async () => {
    const out = path.join(work, 'killed.tar');
    const child = cliProcess(['backup', '--out', out], site.env);
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    // Killed as soon as the archive is being written under its temporary name.
    const partialOf = () => readdirSync(work).find((n) => n.startsWith('.killed.tar.partial-'));
    const end = Date.now() + 120_000;
    while (!partialOf() && child.exitCode === null && Date.now() < end)
      await new Promise((r) => setTimeout(r, 2));
    const partial = partialOf();
    expect(partial, stderr).toBeDefined();
    child.kill('SIGKILL');
    await exited;
    expect(existsSync(out)).toBe(false);
    const result = await runCli(['restore', path.join(work, partial!)], {
      DATA_DIR: path.join(work, 'from-partial'),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(messages.backup.damaged);
    expect(existsSync(path.join(work, 'from-partial', 'db'))).toBe(false);
  }, 300_000);
});
