import argon2 from 'argon2';
import { messages } from '@pathway/contract';
import { HttpError } from '../../lib/http-error.js';
import { WorkLimit } from '../../lib/work-limit.js';

// OWASP's argon2id baseline (19 MiB, 2 passes).
const HASH_OPTIONS = { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/**
 * Two argon2 computations at a time (one per core of the reference machine) and 16 waiting: a
 * flood of sign-ins queues here, in bounded memory, while signed-in staff's requests (which never
 * hash) keep the event loop and the other libuv threads. Past 16 waiting a sign-in is refused at
 * once with 503 and Retry-After; the per-address and overall rate limits on /login come first.
 */
export const ARGON2_CONCURRENCY = 2;
export const ARGON2_QUEUE = 16;
const argon2Work = new WorkLimit(ARGON2_CONCURRENCY, ARGON2_QUEUE);

export function argon2Busy() {
  return argon2Work.busy;
}

async function bounded<T>(task: () => Promise<T>): Promise<T> {
  const result = await argon2Work.run(task);
  if (!result) throw new HttpError(503, messages.login.busy);
  return result.value;
}

/** Hashing is done for signed-in staff and the CLI (new and changed passwords): it waits, never refused. */
export async function hashPassword(password: string): Promise<string> {
  const result = await argon2Work.run(() => argon2.hash(password, HASH_OPTIONS), { alwaysWait: true });
  return result!.value;
}

let dummyHash: Promise<string> | undefined;

/** Verifies; for an unknown user it still spends the same work, so timing reveals nothing. */
export async function verifyPassword(hash: string | undefined, password: string): Promise<boolean> {
  if (!hash) {
    dummyHash ??= argon2.hash('pathway-dummy-password', HASH_OPTIONS);
    const dummy = await dummyHash;
    await bounded(() => argon2.verify(dummy, password).catch(() => false));
    return false;
  }
  return bounded(() => argon2.verify(hash, password).catch(() => false));
}
