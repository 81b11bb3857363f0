import type { DataStore } from '@tus/utils';

/**
 * The tus data store of a server, with a way to wait for the writes it is still doing. A PATCH
 * whose client went away does not stop at once: tus ends the body stream gracefully and the store
 * still stores what it received (in S3 the last, incomplete part). That work outlives the request
 * (Fastify's close does not see it, the socket being gone), so a stopping server waits for it
 * (`drain`) before it lets go of its upload locks: otherwise a resume on another server could run
 * beside it on the same upload.
 */
export interface UploadStore extends DataStore {
  /** Resolves true once every write started so far has settled; false if some still run after `timeoutMs`. */
  drain(timeoutMs: number): Promise<boolean>;
}

/** The writes of one store (or the upload requests of one server) that have not settled yet. */
export class WriteTracker {
  private readonly running = new Set<Promise<unknown>>();

  track<T>(write: Promise<T>): Promise<T> {
    this.running.add(write);
    const settled = () => this.running.delete(write);
    write.then(settled, settled);
    return write;
  }

  async drain(timeoutMs: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    try {
      // A write can start while others settle (a request already past its lock): wait for those too.
      while (this.running.size > 0) {
        const all = Promise.allSettled([...this.running]).then(() => true as const);
        if (!(await Promise.race([all, timedOut]))) return false;
      }
      return true;
    } finally {
      clearTimeout(timer);
    }
  }
}
