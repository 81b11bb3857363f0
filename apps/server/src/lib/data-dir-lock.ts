import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * PGlite is one process's database: two processes opening the same data directory would corrupt
 * it. Whoever opens it (the server, or the CLI while no server runs) holds this lock file.
 */
export function acquireDataDirLock(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, 'pathway.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx', mode: 0o600 });
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        rmSync(file, { force: true });
      };
      process.once('exit', release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(file, 'utf8'));
      if (holder && processIsAlive(holder)) {
        throw new Error(
          `The data directory ${dataDir} is in use by process ${holder}. Stop it first, or run the command while it runs (the CLI talks to a running server).`,
        );
      }
      rmSync(file, { force: true }); // left by a process that died
    }
  }
  throw new Error(`Could not lock the data directory ${dataDir}`);
}

/** Whether a process with this id runs (EPERM: it does, under another user). */
export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
