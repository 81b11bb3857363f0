import pg from 'pg';
import type { Logger } from 'pino';

/** Any fixed number: the first half of the two-key advisory locks that mark running jobs. */
const JOB_LEASE_LOCK_SPACE = 7_311_002;

/**
 * Which active jobs still have a living worker, on PostgreSQL. pg-boss 10 only knows a job is
 * 'active'; if its process dies (SIGKILL, power loss) the job stays active until it expires (up to
 * 30 minutes here) and, for a 'stately' queue, blocks every later job of its kind meanwhile.
 *
 * Each worker process holds a session-level advisory lock per job it runs, on a connection of its
 * own. PostgreSQL drops a session's locks when the session ends, so a job marked active whose lock
 * nobody holds has lost its worker. A lost lease connection is opened again and its locks taken
 * again; between the two another worker may take a running job for orphaned and fail it, which
 * retries it while it still runs, so handlers stay safe to run twice (all of ours are).
 */
export class JobLeases {
  private client: pg.Client | undefined;
  private connecting: Promise<pg.Client> | undefined;
  private readonly held = new Set<string>();
  private closed = false;

  constructor(
    private readonly connection: pg.ClientConfig,
    private readonly logger: Logger,
  ) {}

  /**
   * Marks these jobs as run by this process (before their handler starts). A lease still held
   * elsewhere means the job was taken for orphaned while it ran on: this try fails (and is retried
   * later) rather than run beside it, or wait on the one lease connection every job shares.
   */
  async hold(jobIds: string[]): Promise<void> {
    const client = await this.connected();
    for (const id of jobIds) {
      const { rows } = await client.query<{ got: boolean }>(
        'select pg_try_advisory_lock($1, hashtext($2)) as got',
        [JOB_LEASE_LOCK_SPACE, id],
      );
      if (!rows[0]?.got) {
        await this.release([...jobIds.filter((other) => this.held.has(other))]);
        throw new Error(`job ${id} is still running in another process`);
      }
      this.held.add(id);
    }
  }

  /** The handler finished (or failed): the jobs' state is pg-boss's business again. */
  async release(jobIds: string[]): Promise<void> {
    for (const id of jobIds) this.held.delete(id);
    const client = this.client;
    if (!client) return;
    for (const id of jobIds) {
      await client
        .query('select pg_advisory_unlock($1, hashtext($2))', [JOB_LEASE_LOCK_SPACE, id])
        .catch(() => {});
    }
  }

  /** Of these active job ids, the ones no living session holds (their worker is gone). */
  async orphaned(jobIds: string[]): Promise<string[]> {
    const client = await this.connected();
    const orphans: string[] = [];
    for (const id of jobIds) {
      if (this.held.has(id)) continue; // ours: pg_try_advisory_lock would succeed on our own session
      const { rows } = await client.query<{ free: boolean }>(
        'select pg_try_advisory_lock($1, hashtext($2)) as free',
        [JOB_LEASE_LOCK_SPACE, id],
      );
      if (rows[0]?.free) {
        await client.query('select pg_advisory_unlock($1, hashtext($2))', [JOB_LEASE_LOCK_SPACE, id]);
        orphans.push(id);
      }
    }
    return orphans;
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }

  private async connected(): Promise<pg.Client> {
    if (this.client) return this.client;
    if (this.closed) throw new Error('job leases are closed');
    this.connecting ??= (async () => {
      const client = new pg.Client(this.connection);
      client.on('error', (error) => {
        // The session and its locks are gone; the next use opens a new one and takes them again.
        this.logger.warn({ err: { message: error.message } }, 'job lease connection lost');
        if (this.client === client) this.client = undefined;
      });
      try {
        await client.connect();
        // try: another worker may already have taken one of them for orphaned and be running it.
        for (const id of this.held)
          await client.query('select pg_try_advisory_lock($1, hashtext($2))', [JOB_LEASE_LOCK_SPACE, id]);
        this.client = client;
        return client;
      } catch (error) {
        await client.end().catch(() => {});
        throw error;
      }
    })().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }
}
