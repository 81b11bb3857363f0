import type { PGlite } from '@electric-sql/pglite';
import { isDiskFull } from '../lib/db-errors.js';

/**
 * PGlite is PostgreSQL in this process, without PostgreSQL's way out of a failed write-ahead-log
 * write. PostgreSQL PANICs there and its postmaster restarts it, replaying the log. PGlite turns
 * the failure into an ordinary error (SQLSTATE 53100, `could not write to file "pg_wal/..."`) and
 * leaves its backend half-way: the next statement aborts the WebAssembly instance ("Aborted()")
 * or spins for ever, and opening the directory again while the disk is still full aborts too
 * (tried on PGlite 0.3.14; README, Disk full). Failing to extend a table or index file (also
 * 53100) is different: PostgreSQL recovers from that by itself and so does PGlite.
 */
export function stopsEmbeddedDatabase(error: unknown, depth = 0): boolean {
  const e = error as { message?: string; cause?: unknown } | undefined;
  if (!e || depth > 4) return false;
  if (e instanceof WebAssembly.RuntimeError) return true;
  if (typeof e.message === 'string') {
    if (/^Aborted\(\)/.test(e.message)) return true;
    if (isDiskFull(e) && /pg_wal|xlog|log file/i.test(e.message)) return true;
  }
  return stopsEmbeddedDatabase(e.cause, depth + 1);
}

/** Every call after the embedded database stopped: answered 503, never sent to the broken instance. */
export class EmbeddedDatabaseStopped extends Error {
  /** ENOSPC when the stop came from a full disk (the error handler's disk-full answer), else none. */
  readonly code: string | undefined;
  constructor(readonly reason: unknown) {
    super('The embedded database stopped after a failed write and cannot go on in this process', {
      cause: reason,
    });
    this.name = 'EmbeddedDatabaseStopped';
    this.code = isDiskFull(reason) ? 'ENOSPC' : undefined;
  }
}

/**
 * The PGlite instance as the rest of the server sees it: the same object, except that once an
 * error shows it cannot go on (`stopsEmbeddedDatabase`), no further call reaches it (a call that
 * would spin would block the whole process) and each one fails with `EmbeddedDatabaseStopped`.
 * `onStop` is told once, with the error that stopped it.
 */
export function guardEmbeddedDatabase(
  pglite: PGlite,
  onStop: (reason: unknown) => void,
): { pglite: PGlite; stopped: () => unknown } {
  let stoppedBy: unknown;
  const notice = (error: unknown) => {
    if (stoppedBy === undefined && stopsEmbeddedDatabase(error)) {
      stoppedBy = error;
      onStop(error);
    }
    throw error;
  };
  const guarded = new Proxy(pglite, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (stoppedBy !== undefined) {
          // Closing the stopped instance would run PostgreSQL's shutdown on the broken backend.
          if (property === 'close') return Promise.resolve();
          return Promise.reject(new EmbeddedDatabaseStopped(stoppedBy));
        }
        let result: unknown;
        try {
          result = (value as (...a: unknown[]) => unknown).apply(target, args);
        } catch (error) {
          notice(error);
        }
        return result instanceof Promise ? result.catch(notice) : result;
      };
    },
  });
  return { pglite: guarded, stopped: () => stoppedBy };
}
