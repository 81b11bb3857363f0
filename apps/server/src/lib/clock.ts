import { readFileSync, statSync } from 'node:fs';

/** Time as the application sees it; tests pass a controllable clock. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export class ManualClock implements Clock {
  constructor(private current: Date = new Date()) {}
  now(): Date {
    return new Date(this.current);
  }
  set(date: Date): void {
    this.current = new Date(date);
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

/**
 * The machine's time plus an offset written in a file (browser tests move the server's clock a day
 * with it; see CLOCK_OFFSET_FILE). The file is read again when its modification time changes; a
 * missing or unreadable file means no offset.
 */
export class OffsetFileClock implements Clock {
  private offsetMs = 0;
  private seenMtimeMs = -1;
  private checkedAt = 0;

  constructor(private readonly file: string) {}

  now(): Date {
    const real = Date.now();
    // At most one look at the file every 50 ms: now() is called many times a request.
    if (real - this.checkedAt >= 50) {
      this.checkedAt = real;
      try {
        const { mtimeMs } = statSync(this.file);
        if (mtimeMs !== this.seenMtimeMs) {
          this.seenMtimeMs = mtimeMs;
          const value = Number(readFileSync(this.file, 'utf8').trim());
          this.offsetMs = Number.isFinite(value) ? value : 0;
        }
      } catch {
        this.offsetMs = 0;
        this.seenMtimeMs = -1;
      }
    }
    return new Date(real + this.offsetMs);
  }
}
