/**
 * At most `concurrency` tasks run at once and at most `queueLimit` wait; past that `run` refuses at
 * once (the caller answers 503) instead of queueing without bound. Used for argon2, whose memory-
 * and CPU-hard work is what a flood of sign-ins would otherwise pile onto every core.
 */
export class WorkLimit {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    readonly concurrency: number,
    readonly queueLimit: number,
  ) {}

  /** Runs `task` when a slot is free; undefined (without running it) when the queue is full. */
  async run<T>(
    task: () => Promise<T>,
    options: { alwaysWait?: boolean } = {},
  ): Promise<{ value: T } | undefined> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.queueLimit && !options.alwaysWait) return undefined;
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running += 1;
    }
    try {
      return { value: await task() };
    } finally {
      // The slot passes straight to the next waiter, so running stays counted.
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }

  get busy(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }
}
