import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Database, DatabaseHandle } from './db/client.js';
import type { JobQueue } from './jobs/queue.js';
import type { Clock } from './lib/clock.js';
import type { SessionService } from './modules/auth/sessions.js';

/** What every module may depend on; built once per process (or per test) and passed down. */
export interface AppContext {
  config: Config;
  database: DatabaseHandle;
  db: Database;
  clock: Clock;
  logger: Logger;
  sessions: SessionService;
  jobs: JobQueue;
}
