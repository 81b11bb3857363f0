import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Database, DatabaseHandle } from './db/client.js';
import type { JobQueue } from './jobs/queue.js';
import type { Clock } from './lib/clock.js';
import type { DiskReserve } from './lib/disk-space.js';
import type { SecretBox } from './lib/secret-box.js';
import type { StaffSession, StaffSessions } from './lib/staff-session.js';
import type { VideoTools } from './lib/video-tools.js';
import type { MediaStorage } from './storage/media-storage.js';

/**
 * What every module may depend on; built once per process (or per test) and passed down. It
 * depends on lib/ and the infrastructure (db, jobs, storage), never on a module (the lint keeps it
 * so): every module imports it, so a module here would make them all one import cycle.
 */
export interface AppContext {
  config: Config;
  /**
   * The database's handle, as its owner: migrations, start-up's checks of secrets at rest, the
   * job queue's own tables, backups and readiness. Not for the application's statements.
   */
  database: DatabaseHandle;
  /**
   * The application's database: every statement runs as the staff role in the scope of the
   * request or job that sends it (db/scope.ts), row-level security deciding what it sees.
   */
  db: Database;
  clock: Clock;
  logger: Logger;
  /** Seals and opens secrets stored in the database (TOTP secrets) with the key kept outside it. */
  secrets: SecretBox;
  sessions: StaffSessions;
  /**
   * Where the console goes after Pathway's logout to end the identity provider's session too
   * (RP-initiated logout), or undefined: given by the sso module (runtime.ts), so that auth's
   * logout needs nothing of it. `base` is Pathway's public origin.
   */
  endSessionUrl: (
    session: Pick<StaffSession, 'ssoOrganisationId'>,
    base: string,
  ) => Promise<string | undefined>;
  jobs: JobQueue;
  /** Stored videos and thumbnails (files or S3) and the resumable-upload store in the same place. */
  media: MediaStorage;
  videoTools: VideoTools;
  /** DATA_DIR's free-space reserve (DISK_RESERVE_MB): writes are refused with 503 below it. */
  diskReserve: DiskReserve;
}
