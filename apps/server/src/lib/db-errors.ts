/** The constraint a unique violation (SQLSTATE 23505) broke, through drizzle's wrapping; else null. */
export function uniqueViolation(error: unknown): string | null {
  for (
    let e = error as { code?: string; constraint?: string; cause?: unknown } | undefined;
    e;
    e = e.cause as typeof e
  ) {
    if (e.code === '23505') return e.constraint ?? '';
  }
  return null;
}

/**
 * The disk is full: the write failed before it was acknowledged, so nothing is lost; the client
 * may try again once space is freed. ENOSPC from the file system, SQLSTATE 53100
 * (disk_full) from PostgreSQL, and PGlite's text for the same.
 */
export function isDiskFull(error: unknown, depth = 0): boolean {
  const e = error as { code?: string; message?: string; cause?: unknown } | undefined;
  if (!e || depth > 4) return false;
  if (e.code === 'ENOSPC' || e.code === '53100') return true;
  if (typeof e.message === 'string' && /No space left on device/i.test(e.message)) return true;
  return isDiskFull(e.cause, depth + 1);
}
