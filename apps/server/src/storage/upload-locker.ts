import { ERRORS, type Lock, type Locker, type RequestRelease } from '@tus/utils';
import pg from 'pg';
import type { Logger } from 'pino';

const RELEASE_CHANNEL = 'pathway_upload_release';
/** Second argument of hashtextextended: keeps upload locks apart from other advisory locks. */
const LOCK_SEED = 7_311_003;

/**
 * Locks on uploads shared by every process on one PostgreSQL database, so two web instances never
 * write the same upload at once (tus's default lock lives in one process's memory). Each process
 * holds its upload locks as advisory locks on one connection of its own. A request that wants a
 * lock another request holds asks it to let go (the tus protocol's "request release"): in this
 * process directly, in others through NOTIFY; the holder stops its work and unlocks.
 */
export class PostgresUploadLocker implements Locker {
  private client: pg.Client | null = null;
  private connecting: Promise<pg.Client> | null = null;
  /** Uploads this process holds, with how to ask their request to let go. */
  private readonly held = new Map<string, RequestRelease>();

  constructor(
    private readonly connection: pg.ClientConfig,
    private readonly logger: Logger,
    readonly acquireTimeoutMs = 30_000,
  ) {}

  newLock(id: string): Lock {
    return new PostgresUploadLock(this, id);
  }

  /** Tries once; false when any request, here or in another process, holds the upload. */
  async tryLock(id: string, requestRelease: RequestRelease): Promise<boolean> {
    if (this.held.has(id)) return false;
    // Claimed before the query, so a second request of this process waits for this one.
    this.held.set(id, requestRelease);
    try {
      const client = await this.session();
      const { rows } = await client.query<{ ok: boolean }>(
        'select pg_try_advisory_lock(hashtextextended($1, $2)) as ok',
        [id, LOCK_SEED],
      );
      if (!rows[0]!.ok) this.held.delete(id);
      return rows[0]!.ok;
    } catch (error) {
      this.held.delete(id);
      throw error;
    }
  }

  async askToRelease(id: string): Promise<void> {
    const local = this.held.get(id);
    if (local) {
      await local();
      return;
    }
    const client = await this.session();
    await client.query('select pg_notify($1, $2)', [RELEASE_CHANNEL, id]);
  }

  async unlock(id: string): Promise<void> {
    if (!this.held.delete(id)) throw new Error('Releasing an unlocked lock!');
    // A lost connection already released every lock it held.
    const client = this.client;
    if (client)
      await client
        .query('select pg_advisory_unlock(hashtextextended($1, $2))', [id, LOCK_SEED])
        .catch(() => {});
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = null;
    this.connecting = null;
    await client?.end().catch(() => {});
  }

  private session(): Promise<pg.Client> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= (async () => {
      const client = new pg.Client(this.connection);
      const lost = (error?: Error) => {
        if (this.client !== client) return;
        this.logger.warn({ err: error }, 'upload lock connection lost; reconnecting on next use');
        this.client = null;
        this.connecting = null;
      };
      client.on('error', lost);
      client.on('end', () => lost());
      client.on('notification', (message) => {
        if (message.channel !== RELEASE_CHANNEL || !message.payload) return;
        const release = this.held.get(message.payload);
        if (release) void Promise.resolve(release()).catch(() => {});
      });
      await client.connect();
      await client.query(`listen ${RELEASE_CHANNEL}`);
      this.client = client;
      return client;
    })().catch((error: unknown) => {
      this.connecting = null;
      throw error;
    });
    return this.connecting;
  }
}

class PostgresUploadLock implements Lock {
  constructor(
    private readonly locker: PostgresUploadLocker,
    private readonly id: string,
  ) {}

  async lock(signal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    const deadline = Date.now() + this.locker.acquireTimeoutMs;
    let askedAt = 0;
    for (;;) {
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- tus protocol error object (ERRORS.*), which @tus/server expects thrown as-is
      if (signal.aborted) throw ERRORS.ERR_LOCK_TIMEOUT;
      if (await this.locker.tryLock(this.id, requestRelease)) return;
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- tus protocol error object (ERRORS.*), which @tus/server expects thrown as-is
      if (Date.now() > deadline) throw ERRORS.ERR_LOCK_TIMEOUT;
      if (Date.now() - askedAt > 1000) {
        askedAt = Date.now();
        await this.locker.askToRelease(this.id);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async unlock(): Promise<void> {
    await this.locker.unlock(this.id);
  }
}
