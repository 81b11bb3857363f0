import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * DATA_DIR holds participants' data (the embedded database, logs, uploaded videos): nobody but
 * the server's own user may read it, whatever umask the process was started with (README,
 * Security model). Two parts:
 *
 * - `restrictNewFiles()` sets the process umask to 077 before anything is created, so every file
 *   and directory made afterwards (by us, PGlite, pino, the tus store, ffmpeg, tar) is 0600/0700.
 *   The code that creates directories also asks for 0700 itself (belt and braces).
 * - `secureDataDir()` tightens what exists: DATA_DIR itself is made 0700, which alone keeps every
 *   other user out of everything below it, and its direct entries 0700 (directories) / 0600
 *   (files). A DATA_DIR that was open to others (made by an earlier release under umask 022) is
 *   walked once, whole, so every file below it is tightened too; later starts find it 0700 and
 *   only look at the top.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

export function restrictNewFiles(): void {
  process.umask(0o077);
}

function tighten(entry: string, recurse: boolean): number {
  const stats = lstatSync(entry);
  if (stats.isSymbolicLink()) return 0; // chmod would follow it out of DATA_DIR
  let changed = 0;
  // Group and others lose every bit; the owner's are kept (a directory's are made whole).
  if ((stats.isDirectory() || stats.isFile()) && (stats.mode & 0o077) !== 0) {
    chmodSync(entry, stats.isDirectory() ? PRIVATE_DIR_MODE : stats.mode & 0o700);
    changed += 1;
  }
  // Sockets (control.sock) are made by the server with no access for others already.
  if (recurse && stats.isDirectory()) {
    for (const name of readdirSync(entry)) changed += tighten(path.join(entry, name), true);
  }
  return changed;
}

/**
 * Tightens every entry under `dir` (and `dir` itself). PGlite's initdb sets modes of its own
 * (0750, 0640), which a umask cannot narrow: a new or restored database directory is walked once.
 */
export function tightenTree(dir: string): number {
  return tighten(dir, true);
}

/** Creates DATA_DIR (0700) if needed and tightens it; answers how many entries were changed. */
export function secureDataDir(dataDir: string): number {
  mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const wasOpen = (lstatSync(dataDir).mode & 0o077) !== 0;
  let changed = tighten(dataDir, false);
  for (const name of readdirSync(dataDir)) {
    const entry = path.join(dataDir, name);
    try {
      changed += tighten(entry, wasOpen);
    } catch (error) {
      // Removed meanwhile (a file of a previous run's temporary work): nothing to tighten.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return changed;
}
