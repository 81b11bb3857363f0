import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Waits for a state, never for a fixed time: polls `check` until it gives a value (not undefined
 * or false). The deadline only turns a state that never comes into a readable failure; keep it
 * near the test's own timeout, not near how long the wait usually takes, so a busy machine (CI on
 * two cores, `stress` beside the suite) is slower but never fails.
 */
export async function waitUntil<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  what: string,
  ms = 150_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Everything the daily log files in `logDir` hold so far. */
export function logFilesText(logDir: string): string {
  try {
    return readdirSync(logDir)
      .map((f) => readFileSync(path.join(logDir, f), 'utf8'))
      .join('');
  } catch {
    return '';
  }
}

/**
 * Waits until the log files hold `text`. Pino writes asynchronously: a line that should be there
 * is waited for by its content, which also means every line logged before it is there.
 */
export function logWritten(logDir: string, text: string): Promise<string> {
  return waitUntil(() => {
    const all = logFilesText(logDir);
    return all.includes(text) ? all : undefined;
  }, `a log line with ${text}`);
}
