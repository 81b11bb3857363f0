import { createHash, randomBytes } from 'node:crypto';
import { instanceScope, withScope } from '../db/scope.js';
import { createReadStream, existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { messages } from '@pathway/contract';
import type { AppContext } from '../context.js';
import { column, rowsReader } from '../db/rows.js';
import { tightenTree } from '../lib/data-dir-modes.js';
import { HttpError } from '../lib/http-error.js';
import { SecretBox } from '../lib/secret-box.js';
import { FileBlobStore } from '../storage/file-blob-store.js';
import { PATHWAY_VERSION } from '../version.js';

/**
 * One backup is one tar file: `db/pgdata.tar.gz` (the embedded database, as PGlite dumps its data
 * directory), `media/...` (every stored video, thumbnail and upload) and, last, `manifest.json`:
 * release, time, every table's row count and every file's size and SHA-256. A restore checks all
 * of it before it writes anything where the server will look.
 */
export const MANIFEST = 'manifest.json';
const DB_ENTRY = 'db/pgdata.tar.gz';

/** Loaded when a backup is made or restored, not at every start of the server. */
const tarModule = () => import('tar');
const FORMAT = 'pathway-backup';
const FORMAT_VERSION = 1;

export interface BackupManifest {
  format: typeof FORMAT;
  format_version: number;
  version: string;
  created_at: string;
  database: 'pglite';
  /** schema.table -> rows, as the copy holds them (counted in the copy itself). */
  tables: Record<string, number>;
  files: { path: string; size: number; sha256: string }[];
}

export interface BackupResult {
  file: string;
  bytes: number;
  tables: number;
  rows: number;
  media_files: number;
  created_at: string;
}

/** Every table of ours (public) and the migrations applied (drizzle), with its row count. */
async function countRows(
  query: (text: string) => Promise<{ rows: unknown[] }>,
): Promise<Record<string, number>> {
  const { rows: tables } = (await query(
    `select table_schema as s, table_name as t from information_schema.tables
     where table_type = 'BASE TABLE' and table_schema in ('public', 'drizzle') order by 1, 2`,
  )) as { rows: { s: string; t: string }[] };
  const counts: Record<string, number> = {};
  for (const { s, t } of tables) {
    const { rows } = (await query(`select count(*)::int as n from "${s}"."${t}"`)) as {
      rows: { n: number }[];
    };
    counts[`${s}.${t}`] = Number(rows[0]!.n);
  }
  return counts;
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function listFiles(root: string, relative = ''): Promise<string[]> {
  const entries = await fs.readdir(path.join(root, relative), { withFileTypes: true }).catch(() => []);
  const files: string[] = [];
  for (const entry of entries) {
    const name = path.posix.join(relative, entry.name);
    if (entry.isDirectory()) files.push(...(await listFiles(root, name)));
    else if (entry.isFile()) files.push(name);
  }
  return files;
}

/**
 * The media files as they are now, in `target`, without copying video bytes: stored blobs are
 * never changed once written (a new version is a new key, written beside and renamed), so a hard
 * link is a snapshot. Only what can still change is copied: uploads still receiving bytes and
 * tus's bookkeeping files. Files half-written by the blob store (`.tmp-`) are not stored yet.
 */
async function snapshotMedia(mediaDir: string, target: string, receiving: Set<string>): Promise<void> {
  for (const name of await listFiles(mediaDir)) {
    if (name.includes('.tmp-')) continue;
    const from = path.join(mediaDir, name);
    const to = path.join(target, name);
    await fs.mkdir(path.dirname(to), { recursive: true });
    const mutable = name.endsWith('.json') || receiving.has(name);
    try {
      if (mutable) await fs.copyFile(from, to);
      else await fs.link(from, to);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') continue; // removed before the hold began: its row is gone too
      if (code === 'EPERM' || code === 'EXDEV') await fs.copyFile(from, to);
      else throw error;
    }
  }
}

/**
 * Opens a database copy (a PGlite data-directory dump) and counts its rows, on a thread of its own
 * (pglite-copy.worker.mjs). Starting a second PostgreSQL and counting are synchronous WebAssembly:
 * on the server's thread they would stall every request meanwhile, and under a write load they
 * interleaved with the requests for about a minute (the backup test, on 2 cores).
 */
async function countRowsOfCopy(dumpFile: string): Promise<Record<string, number>> {
  // Beside this module in the sources; beside main.js, as .js, in the bundle `npm start` runs.
  const entry = `./pglite-copy.worker.${import.meta.url.endsWith('.ts') ? 'mjs' : 'js'}`;
  const worker = new Worker(new URL(entry, import.meta.url), { workerData: { dumpFile } });
  const pending = new Map<number, { resolve: (rows: unknown[]) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  // A thread that fails or ends fails the query under way (each is raced against this).
  const failed = new Promise<never>((_, reject) => {
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`The backup's database copy closed (exit ${code})`)));
  });
  failed.catch(() => {});
  const ready = new Promise<void>((resolve) => {
    worker.on('message', (message: { ready?: true; id?: number; rows?: unknown[]; error?: string }) => {
      if (message.ready) return resolve();
      const query = pending.get(message.id!);
      pending.delete(message.id!);
      if (message.error !== undefined) query?.reject(new Error(message.error));
      else query?.resolve(message.rows!);
    });
  });
  try {
    await Promise.race([ready, failed]);
    return await countRows((text) => {
      const id = nextId++;
      const rows = new Promise<unknown[]>((resolve, reject) => pending.set(id, { resolve, reject }));
      worker.postMessage({ id, text });
      return Promise.race([rows, failed]).then((result) => ({ rows: result }));
    });
  } finally {
    worker.removeAllListeners('exit');
    await worker.terminate();
  }
}

/** A sibling of `file` that `restore` never takes for a backup (it has no manifest yet). */
function partialName(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.partial-${randomBytes(4).toString('hex')}`);
}

/**
 * Makes a backup of the embedded database and the media files while the server serves. The
 * database copy is taken between two transactions, in one synchronous read of PGlite's files (no
 * query can run meanwhile: PGlite and its caller share one thread), with file removals held from
 * just before the copy until the media snapshot is taken: every file a row of the copy points at
 * is in the snapshot. The archive is written under a temporary name and renamed when complete.
 */
export async function createBackup(ctx: AppContext, outFile: string): Promise<BackupResult> {
  const pglite = ctx.database.pglite;
  if (!pglite) throw new HttpError(400, messages.backup.postgres);
  const out = path.resolve(outFile);
  if (existsSync(out)) throw new HttpError(409, messages.backup.targetExists);
  await fs.mkdir(path.dirname(out), { recursive: true });
  const staging = path.join(ctx.config.dataDir, `backup-staging-${randomBytes(6).toString('hex')}`);
  const partial = partialName(out);
  const blobs = ctx.media.blobs;
  try {
    await fs.mkdir(path.join(staging, 'db'), { recursive: true, mode: 0o700 });
    // Less WAL for the copy to replay when it is opened.
    await pglite.exec('checkpoint');
    const takeSnapshot = async () => {
      const dump = await (
        pglite as unknown as { _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T> }
      )._runExclusiveTransaction(() => pglite.dumpDataDir('gzip'));
      await fs.writeFile(path.join(staging, DB_ENTRY), Buffer.from(await dump.arrayBuffer()));
      const receiving = new Set(
        rowsReader({ key: column.text })(
          // The whole instance's uploads: a backup is the instance's.
          await withScope(instanceScope('backup'), () =>
            ctx.db.execute(sql`select storage_key as key from video_uploads where status = 'receiving'`),
          ),
        ).map((r) => r.key),
      );
      await snapshotMedia(ctx.config.mediaDir, path.join(staging, 'media'), receiving);
    };
    if (blobs instanceof FileBlobStore) await blobs.withRemovalsHeld(takeSnapshot);
    else await takeSnapshot();

    // The counts come from the copy itself, opened on its own: this also proves it opens.
    const tables = await countRowsOfCopy(path.join(staging, DB_ENTRY));
    const entries = [DB_ENTRY, ...(await listFiles(path.join(staging, 'media'))).map((f) => `media/${f}`)];
    const files: BackupManifest['files'] = [];
    for (const entry of entries) {
      const file = path.join(staging, entry);
      files.push({ path: entry, size: (await fs.stat(file)).size, sha256: await sha256Of(file) });
    }
    const manifest: BackupManifest = {
      format: FORMAT,
      format_version: FORMAT_VERSION,
      version: PATHWAY_VERSION,
      created_at: ctx.clock.now().toISOString(),
      database: 'pglite',
      tables,
      files,
    };
    await fs.writeFile(path.join(staging, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    // The manifest is the archive's last entry: an archive cut short has none.
    await (await tarModule()).create({ file: partial, cwd: staging, portable: true }, [...entries, MANIFEST]);
    const handle = await fs.open(partial, 'r');
    await handle.sync();
    await handle.close();
    await fs.rename(partial, out);
    const result: BackupResult = {
      file: out,
      bytes: (await fs.stat(out)).size,
      tables: Object.keys(tables).length,
      rows: Object.values(tables).reduce((a, b) => a + b, 0),
      media_files: files.length - 1,
      created_at: manifest.created_at,
    };
    ctx.logger.info({ ...result }, 'backup written');
    return result;
  } finally {
    await fs.rm(partial, { force: true });
    await fs.rm(staging, { recursive: true, force: true });
  }
}

function damaged(why: string): HttpError {
  return new HttpError(400, `${messages.backup.damaged} (${why})`);
}

/**
 * Fills an empty (or absent) data directory from a backup. Everything is unpacked beside it and
 * checked first (every file's size and SHA-256, the database opened and every table's row count
 * compared); only then is the directory moved into place, in one rename.
 */
export async function restoreBackup(
  archive: string,
  dataDir: string,
): Promise<Omit<BackupResult, 'bytes' | 'file'> & { secrets_key_id: string | null }> {
  const target = path.resolve(dataDir);
  const existing = await fs.readdir(target).catch(() => null);
  if (existing && existing.length > 0) throw new HttpError(409, messages.backup.notEmpty);
  await fs.mkdir(path.dirname(target), { recursive: true });
  const work = `${target}.restoring-${randomBytes(4).toString('hex')}`;
  const unpacked = path.join(work, 'unpacked');
  try {
    await fs.mkdir(unpacked, { recursive: true, mode: 0o700 });
    try {
      await (await tarModule()).extract({ file: path.resolve(archive), cwd: unpacked, strict: true });
    } catch (error) {
      throw damaged(`it could not be read as a tar archive: ${(error as Error).message}`);
    }
    let manifest: BackupManifest;
    try {
      manifest = JSON.parse(await fs.readFile(path.join(unpacked, MANIFEST), 'utf8')) as BackupManifest;
    } catch {
      throw damaged('it has no readable manifest');
    }
    if (manifest.format !== FORMAT || !Array.isArray(manifest.files))
      throw damaged('it is not a Pathway backup');
    if (manifest.format_version > FORMAT_VERSION)
      throw damaged(`it was made by a newer release (${manifest.version}) in a format this one cannot read`);
    for (const entry of manifest.files) {
      const file = path.join(unpacked, entry.path);
      if (!file.startsWith(unpacked + path.sep))
        throw damaged(`a file name leaves the archive: ${entry.path}`);
      const stats = await fs.stat(file).catch(() => null);
      if (!stats || stats.size !== entry.size || (await sha256Of(file)) !== entry.sha256)
        throw damaged(`${entry.path} is missing or differs from its checksum`);
    }
    const dbDir = path.join(work, 'data', 'db');
    // Becomes DATA_DIR: private whatever the umask (lib/data-dir-modes.ts).
    await fs.mkdir(dbDir, { recursive: true, mode: 0o700 });
    let restored: PGlite | undefined;
    let secretsKeyId: string | null = null;
    try {
      restored = await PGlite.create(dbDir, {
        loadDataDir: new Blob([await fs.readFile(path.join(unpacked, DB_ENTRY))]),
      });
      const counts = await countRows((text) => restored!.query(text));
      for (const [table, rows] of Object.entries(manifest.tables)) {
        if (counts[table] !== rows)
          throw damaged(`${table} holds ${counts[table]} rows, the manifest says ${rows}`);
      }
      // Which secrets key the restored database needs (not in the archive: README, Backup).
      if (counts['public.server_secrets'] !== undefined) {
        const { rows } = await restored.query<{ value: string }>(
          "select value from server_secrets where name = 'secrets-key-check'",
        );
        secretsKeyId = rows[0] ? (SecretBox.keyIdOf(rows[0].value) ?? null) : null;
      }
    } catch (error) {
      if (error instanceof HttpError) throw error;
      throw damaged(`its database could not be opened: ${(error as Error).message}`);
    } finally {
      await restored?.close();
    }
    // The dump carries initdb's modes (0750/0640): private like the rest of DATA_DIR.
    tightenTree(dbDir);
    const media = path.join(unpacked, 'media');
    await fs.mkdir(media, { recursive: true, mode: 0o700 });
    await fs.rename(media, path.join(work, 'data', 'media'));
    // An empty target is replaced in one rename; a target that gained files meanwhile is not.
    if (existing) await fs.rmdir(target);
    await fs.rename(path.join(work, 'data'), target);
    return {
      tables: Object.keys(manifest.tables).length,
      rows: Object.values(manifest.tables).reduce((a, b) => a + b, 0),
      media_files: manifest.files.length - 1,
      created_at: manifest.created_at,
      secrets_key_id: secretsKeyId,
    };
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}
