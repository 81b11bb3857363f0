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
