import type { AppContext } from '../context.js';
import { adherenceCheckJob } from '../modules/adherence/index.js';
import { pushDeliveryJob } from '../modules/push/index.js';
import { mediaCleanupJob, mediaDeleteJob, thumbnailJob } from '../modules/videos/index.js';
import { retentionJob } from '../modules/retention/index.js';
import { scheduledBackupJob } from '../backup/backup-job.js';
import type { JobDefinition } from './queue.js';

/**
 * Every kind of background work, with its handler bound to the process's services. A module that
 * adds a job adds its definition here.
 */
export function jobDefinitions(ctx: AppContext): JobDefinition<never>[] {
  return [
    thumbnailJob(ctx),
    mediaDeleteJob(ctx),
    mediaCleanupJob(ctx),
    adherenceCheckJob(ctx),
    pushDeliveryJob(ctx),
    retentionJob(ctx),
    scheduledBackupJob(ctx),
  ].filter((definition) => definition !== undefined) as JobDefinition<never>[];
}
