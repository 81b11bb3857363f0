import { statfsSync } from 'node:fs';
import { statfs } from 'node:fs/promises';

/** Bytes an unprivileged process may still write on the file system holding `dir`. */
export async function freeBytes(dir: string): Promise<number> {
  const s = await statfs(dir);
  return s.bavail * s.bsize;
}

export function freeBytesSync(dir: string): number {
  const s = statfsSync(dir);
  return s.bavail * s.bsize;
}

/**
 * The room kept free in DATA_DIR (DISK_RESERVE_MB). Below it, requests that would store something
 * are refused with 503 before they write, so the embedded database always keeps space for its
 * write-ahead log: PGlite cannot survive a failed WAL write in-process (it aborts or spins, see
 * the README's "Disk full"), while a refused request loses nothing. Reads, sign-in and the
 * database's own small writes (sessions, audit records of reads, job bookkeeping) go on using the
 * reserve. A reserve of 0 turns the check off.
 */
export class DiskReserve {
  constructor(
    private readonly dir: string,
    readonly reserveBytes: number,
  ) {}

  get enabled(): boolean {
    return this.reserveBytes > 0;
  }

  /** Bytes that may still be stored before the reserve is reached (negative: inside it). */
  async available(): Promise<number> {
    return (await freeBytes(this.dir)) - this.reserveBytes;
  }

  /** True when storing `bytes` more would reach into the reserve. */
  async wouldExceed(bytes = 0): Promise<boolean> {
    if (!this.enabled) return false;
    return (await this.available()) <= bytes;
  }
}
