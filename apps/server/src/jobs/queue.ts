import type { PGlite, Transaction } from '@electric-sql/pglite';
import PgBoss from 'pg-boss';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { Database, DatabaseHandle } from '../db/client.js';
import { instanceScope, withScope } from '../db/scope.js';
import { JobLeases } from './job-leases.js';
import { PGliteBossAdapter } from './pglite-boss-adapter.js';

/** How often a PostgreSQL worker looks for active jobs whose process died. */
const ORPHAN_SWEEP_MS = 15_000;
/** How often an idle worker of the embedded database looks for work it was not woken for (startWorkers). */
const EMBEDDED_POLLING_SECONDS = 5;
/** A job fetched this recently may not hold its lease yet: left for the next sweep. */
const LEASE_GRACE_SECONDS = 5;

/** A kind of background work: its queue's retry policy, its handler and, optionally, a schedule. */
export interface JobDefinition<Data extends object = object> {
  name: string;
  retryLimit?: number;
  retryDelay?: number;
  retryBackoff?: boolean;
  /** A job still active after this long is taken to be lost (crashed worker) and retried. */
  expireInSeconds?: number;
  /** Jobs handed to one handler call. */
  batchSize?: number;
  /** Hand the handler each job's retry count and limit (so its last try can record a failure). */
  includeMetadata?: boolean;
  /** pg-boss queue policy; 'stately' keeps at most one job waiting and one running. */
  policy?: 'standard' | 'short' | 'singleton' | 'stately';
  schedule?: { cron: string; timeZone: string; data?: Data };
  /**
   * Called before jobs whose process died are failed (and so retried): undo what such a job had
   * claimed, so the retry, or the next job, can take it up at once.
   */
  onOrphaned?(): Promise<void>;
  handler(jobs: PgBoss.Job<Data>[]): Promise<unknown>;
}

/**
 * The staff role (db/scope.ts) queues jobs inside its own transactions, so that a change and the
 * job it needs commit together: it may use pg-boss's tables, which pg-boss makes (and may add to)
 * when it starts. Granted only where missing, one instance at a time (concurrent grants on one
 * table fail).
 */
const PGBOSS_TABLES_STAFF_CANNOT_WRITE = `
  -- By oid, not by name: the planner may test the privilege on other schemas' rows before the
  -- schema's condition, and a name looked up in the wrong schema is an error.
  select 1 from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where n.nspname = 'pgboss' and c.relkind in ('r', 'p')
    and not has_table_privilege('pathway_staff', c.oid, 'insert')`;
const GRANT_QUEUE_TO_STAFF = `
  do $$
  begin
    perform pg_advisory_xact_lock(7311003);
    if exists (${PGBOSS_TABLES_STAFF_CANNOT_WRITE}) then
      grant usage on schema pgboss to pathway_staff;
      grant select, insert, update, delete on all tables in schema pgboss to pathway_staff;
      grant usage, select on all sequences in schema pgboss to pathway_staff;
    end if;
  end $$`;

export interface SendOptions {
  /** Enqueue inside this Drizzle transaction: the job exists only if the transaction commits. */
  tx?: Database;
  singletonKey?: string;
  startAfter?: number | string | Date;
  /** A job id of ours: sending the same id twice queues it once. */
  id?: string;
}

export type ProcessRole = 'all' | 'web' | 'worker';

/**
 * The durable queue (pg-boss) on the application's own database, PGlite or PostgreSQL alike.
 * Web processes only enqueue; worker processes (or the single embedded process) run handlers.
 */
export class JobQueue {
  private readonly definitions = new Map<string, JobDefinition<never>>();
  private workersStarted = false;
  /** A start in progress (startWorkers), and the handlers already registered by an earlier try. */
  private starting: Promise<void> | undefined;
  private readonly registered = new Set<string>();
  /**
   * Each queue's pg-boss workers by id: `notify` wakes them by id (pg-boss's notifyWorker takes a
   * worker's id, not a queue's name; given a name it did nothing, and every job waited for the next
   * poll, up to a second, which was most of the wait for a thumbnail).
   */
  private readonly workerIds = new Map<string, string[]>();
  private leases: JobLeases | undefined;
  /**
   * Jobs being run now, each from pg-boss's call to its end (the handler and its lease): a stop
   * waits for them before the database may close under them.
   */
  private readonly running = new Set<Promise<unknown>>();
  /** Set when the process stops: long handlers check it and end early (their work is retried). */
  stopping = false;
  private sweepTimer: NodeJS.Timeout | undefined;

  /** pg-boss's timekeeper (cron), started with the workers: see startWorkers. */
  private scheduler: PgBoss | undefined;

  private constructor(
    readonly boss: PgBoss,
    private readonly db: StatementsInFlight,
    private readonly database: DatabaseHandle,
    private readonly logger: Logger,
  ) {}

  static async start(database: DatabaseHandle, logger: Logger, role: ProcessRole): Promise<JobQueue> {
    const db = new StatementsInFlight(
      existingQueuesKept(
        database.kind === 'pglite'
          ? new PGliteBossAdapter(database.pglite!)
          : { executeSql: (text, values) => database.pool!.query(text, values as unknown[]) },
      ),
    );
    const boss = new PgBoss({
      db,
      schema: 'pgboss',
      // Maintenance (expiring lost jobs, archiving) belongs to processes that do work; so does
      // cron, which startWorkers starts (after the server listens).
      supervise: role !== 'web',
      schedule: false,
      maintenanceIntervalSeconds: 30,
    });
    boss.on('error', (error) => logger.error({ err: error }, 'job queue error'));
    await boss.start();
    // Looked for first with a plain query: the locked block is compiled at each start, and on an
    // existing database there is nothing to grant.
    const { rows } = await db.executeSql(`${PGBOSS_TABLES_STAFF_CANNOT_WRITE} limit 1`, []);
    if (rows.length > 0) await db.executeSql(GRANT_QUEUE_TO_STAFF, []);
    return new JobQueue(boss, db, database, logger);
  }

  /** The queues that exist, read once: every start defines all of them (see define). */
  private existingQueues: Set<string> | undefined;

  /** Creates the queue (idempotent) and remembers its handler; call before sending to it. */
  async define<Data extends object>(definition: JobDefinition<Data>): Promise<void> {
    this.existingQueues ??= new Set((await this.boss.getQueues()).map((queue) => queue.name));
    // pg-boss leaves an existing queue as it is (its create_queue inserts ON CONFLICT DO NOTHING),
    // so asking only for missing ones changes nothing; on an existing data directory it spares one
    // statement a queue at every start (tens of milliseconds each in the embedded database).
    if (!this.existingQueues.has(definition.name)) await this.createQueue(definition as JobDefinition<never>);
    this.definitions.set(definition.name, definition as JobDefinition<never>);
  }

  private async createQueue(definition: JobDefinition<never>): Promise<void> {
    await this.boss.createQueue(definition.name, {
      name: definition.name,
      policy: definition.policy ?? 'standard',
      retryLimit: definition.retryLimit ?? 3,
      retryDelay: definition.retryDelay ?? 10,
      retryBackoff: definition.retryBackoff ?? true,
      expireInSeconds: definition.expireInSeconds ?? 15 * 60,
    });
    this.existingQueues?.add(definition.name);
  }

  async send<Data extends object>(
    name: string,
    data: Data,
    options: SendOptions = {},
  ): Promise<string | null> {
    if (!this.definitions.has(name)) throw new Error(`Unknown job ${name}`);
    const { tx, ...rest } = options;
    const sendOptions: PgBoss.SendOptions = { ...rest };
    if (tx) sendOptions.db = this.dbForTransaction(tx);
    return this.boss.send(name, data, sendOptions);
  }

  /**
   * Starts handlers and schedules; in the embedded process, also reclaims jobs a crash left active.
   * `workersPerQueue` runs that many handlers of each queue side by side (pg-boss hands each its
   * own job): the test harness uses 2, so one slow job (a thumbnail on a busy machine, a retry)
   * cannot hold up the next job of its queue. A process serves one handler per queue by default.
   * `pollingIntervalSeconds` is how often an idle worker looks for jobs nobody woke it for: sent by
   * another process, or due later (a retry, a job of the schedules). On PostgreSQL 1 s, as a web
   * process sends work (a thumbnail) to worker processes. The embedded database has one process,
   * which wakes its worker whenever it queues work (`notify`), so what is left to find is a retry or
   * a scheduled job, and 5 s is soon enough: each look is a statement on its one thread (7 queues,
   * once a second, were about 4.6 % of a core on an idle server). The test harness asks for 1 s on
   * both, the queue's tests far longer to show that `notify` alone wakes a worker.
   */
  async startWorkers(
    options: { workersPerQueue?: number; pollingIntervalSeconds?: number } = {},
  ): Promise<void> {
    if (this.workersStarted) return;
    this.starting ??= this.startEach(
      Math.max(1, options.workersPerQueue ?? 1),
      options.pollingIntervalSeconds ?? (this.database.kind === 'pglite' ? EMBEDDED_POLLING_SECONDS : 1),
    ).then(
      () => {
        this.workersStarted = true;
      },
      (error: unknown) => {
        this.starting = undefined;
        throw error;
      },
    );
    return this.starting;
  }

  /**
   * startWorkers' steps, each done once however many tries a start takes: a start that failed
   * part way (the database lost meanwhile) is tried again by the caller, and must neither register
   * a handler twice nor leave a second timer or scheduler behind.
   */
  private async startEach(workersPerQueue: number, pollingIntervalSeconds: number): Promise<void> {
    if (this.database.kind === 'pglite') {
      await this.failOrphanedActiveJobs();
    } else {
      this.leases ??= new JobLeases(
        { ...this.database.pool!.options, max: undefined } as pg.ClientConfig,
        this.logger,
      );
      await this.failOrphanedActiveJobs();
      if (!this.sweepTimer) {
        this.sweepTimer = setInterval(() => {
          this.failOrphanedActiveJobs().catch((error: unknown) =>
            this.logger.warn({ err: error }, 'could not look for orphaned jobs'),
          );
        }, ORPHAN_SWEEP_MS);
        this.sweepTimer.unref();
      }
    }
    for (const definition of this.definitions.values())
      for (let n = 0; n < workersPerQueue; n++) {
        const handler = `${definition.name}#${n}`;
        if (!this.registered.has(handler)) {
          const workerId = await this.boss.work(
            definition.name,
            {
              batchSize: definition.batchSize ?? 1,
              pollingIntervalSeconds,
              includeMetadata: definition.includeMetadata ?? false,
            },
            async (jobs) => {
              const run = this.runJobs(definition, jobs);
              this.running.add(run);
              try {
                return await run;
              } finally {
                this.running.delete(run);
              }
            },
          );
          this.registered.add(handler);
          this.workerIds.set(definition.name, [...(this.workerIds.get(definition.name) ?? []), workerId]);
        }
        // pg-boss keeps one schedule a name (an upsert): a second try writes the same one again.
        if (definition.schedule) {
          await this.boss.schedule(
            definition.name,
            definition.schedule.cron,
            definition.schedule.data ?? {},
            {
              tz: definition.schedule.timeZone,
            },
          );
        }
      }
    // pg-boss's cron runs in its timekeeper, which starts with the queue it sends through, a poll of
    // that queue and a first look at every schedule: work a start need not do before it serves.
    // Here it is a second pg-boss on the same database doing that alone (the schedules it reads
    // are the ones written above; it neither installs nor maintains anything).
    if (this.scheduler) return;
    const scheduler = new PgBoss({
      db: this.db,
      schema: 'pgboss',
      migrate: false,
      supervise: false,
      schedule: true,
    });
    scheduler.on('error', (error) => this.logger.error({ err: error }, 'job scheduler error'));
    await scheduler.start();
    this.scheduler = scheduler;
  }

  /** Whether a job of `name` whose data contains `dataSubset` is waiting, being retried or running. */
  isPending(name: string, dataSubset: object): Promise<boolean> {
    return this.hasJobIn(name, dataSubset, ['created', 'retry', 'active']);
  }

  /**
   * Whether such a job is still to start (waiting or to be retried). A running one may already
   * have read what it works from, so a request to redo the work cannot lean on it.
   */
  isWaiting(name: string, dataSubset: object): Promise<boolean> {
    return this.hasJobIn(name, dataSubset, ['created', 'retry']);
  }

  private async hasJobIn(name: string, dataSubset: object, states: string[]): Promise<boolean> {
    const { rows } = await this.boss.getDb().executeSql(
      // The states go as one text: the PGlite adapter does not pass arrays as parameters.
      "select 1 from pgboss.job where name = $1 and state::text = any(string_to_array($2, ',')) and data @> $3::jsonb limit 1",
      [name, states.join(','), JSON.stringify(dataSubset)],
    );
    return rows.length > 0;
  }

  /** Wakes the queue's idle workers now instead of at their next poll (after enqueueing in-process). */
  notify(name: string): void {
    for (const workerId of this.workerIds.get(name) ?? []) this.boss.notifyWorker(workerId);
  }

  /** One batch of a queue's jobs, as its handler runs them: the lease held meanwhile (PostgreSQL). */
  private async runJobs(definition: JobDefinition<never>, jobs: PgBoss.Job<unknown>[]): Promise<unknown> {
    const ids = jobs.map((job) => job.id);
    try {
      await this.leases?.hold(ids);
      // Background work is the instance's, every organisation's, and says so by name.
      return await withScope(instanceScope(`job ${definition.name}`), () =>
        definition.handler(jobs as never),
      );
    } catch (error) {
      this.logger.warn(
        { job: definition.name, err: error },
        'job failed; it will be retried if it has tries left',
      );
      throw error;
    } finally {
      await this.leases?.release(ids);
    }
  }

  /**
   * Stops the workers and the scheduler; once it returns, nothing of the queue touches the
   * database. `waitMs`: how long pg-boss waits for running jobs before it marks them for retry.
   */
  async stop(waitMs = 10_000): Promise<void> {
    this.stopping = true;
    clearInterval(this.sweepTimer);
    await this.scheduler?.stop({ graceful: true, close: false, wait: true, timeout: waitMs });
    await this.boss.stop({ graceful: true, close: false, wait: true, timeout: waitMs });
    // pg-boss gives up waiting after its timeout (and marks those jobs for retry), but a handler
    // still running would then query a closed database and crash the process on its way out.
    await Promise.allSettled([...this.running]);
    // Then pg-boss writes what became of each job (complete or fail), a statement it starts on its
    // next step without waiting for its answer (pg-boss 10, manager.js: `watch`). Sent once the
    // database had closed, its failure was heard by no one (CI: "Cannot use a pool after calling
    // end on the pool", an unhandled rejection after the seed-demo test had passed).
    await new Promise((resolve) => setImmediate(resolve));
    await this.db.settled();
    await this.leases?.close();
  }

  /**
   * Fails (so retries, if it has tries left) every job left 'active' by a process that died,
   * rather than waiting for its expiry. PGlite is opened by one process only, so at start every
   * active job is such a one; on PostgreSQL, one whose lease no living session holds.
   */
  private async failOrphanedActiveJobs(): Promise<void> {
    const { rows } = await this.boss.getDb().executeSql(
      this.leases
        ? `select name, array_agg(id) as ids from pgboss.job
           where state = 'active' and started_on < now() - interval '${LEASE_GRACE_SECONDS} seconds' group by name`
        : "select name, array_agg(id) as ids from pgboss.job where state = 'active' group by name",
      [],
    );
    for (const row of rows) {
      const { name, ids: active } = row as { name: string; ids: string[] };
      const ids = this.leases ? await this.leases.orphaned(active) : active;
      if (ids.length === 0) continue;
      this.logger.warn({ job: name, count: ids.length }, 'reclaiming jobs left active by a stopped process');
      const definition = this.definitions.get(name);
      if (definition?.onOrphaned)
        await withScope(instanceScope(`job ${name}`), () => definition.onOrphaned?.());
      await (this.boss.fail as (name: string, ids: string[], data: object) => Promise<unknown>)(name, ids, {
        message: 'the process running this job stopped; retrying',
      });
    }
  }

  /** pg-boss must enqueue through the transaction's own connection (PGlite has only one). */
  private dbForTransaction(tx: Database): PgBoss.Db {
    const client = (tx as unknown as { session: { client: Transaction | PGlite | pg.PoolClient } }).session
      .client;
    if (this.database.kind === 'pglite') return new PGliteBossAdapter(client as Transaction);
    return { executeSql: (text, values) => (client as pg.PoolClient).query(text, values as unknown[]) };
  }
}

/**
 * pg-boss's door to the database, with the statements it has sent and not yet had answered: some
 * it sends without waiting for them (a job's completion), so a stop waits for these instead.
 */
class StatementsInFlight implements PgBoss.Db {
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(private readonly db: PgBoss.Db) {}

  executeSql(text: string, values: unknown[]): Promise<{ rows: unknown[] }> {
    const statement = this.db.executeSql(text, values);
    const settled: Promise<unknown> = statement.then(
      () => this.inFlight.delete(settled),
      () => this.inFlight.delete(settled),
    );
    this.inFlight.add(settled);
    return statement;
  }

  /** Once every statement sent so far, and any sent meanwhile, has its answer. */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }
}

/**
 * pg-boss's timekeeper asks for its own queue each time it starts, through a PL/pgSQL function
 * that does nothing for a queue that exists (its insert is ON CONFLICT DO NOTHING, then it
 * returns) but is compiled first in each new session, one of the longest statements of an embedded
 * start. A plain look-up answers for an existing queue instead; a missing one is still made by
 * the function.
 */
function existingQueuesKept(db: PgBoss.Db): PgBoss.Db {
  return {
    async executeSql(text, values) {
      if (CREATE_QUEUE.test(text) && typeof values?.[0] === 'string') {
        const { rows } = await db.executeSql('select 1 from pgboss.queue where name = $1', [values[0]]);
        if (rows.length > 0) return { rows: [] };
      }
      return db.executeSql(text, values);
    },
  };
}
const CREATE_QUEUE = /^\s*SELECT pgboss\.create_queue\(\$1, \$2\)\s*$/;
