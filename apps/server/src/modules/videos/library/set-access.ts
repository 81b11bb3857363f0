import { messages } from '@pathway/contract';
import type { videoSets } from '../../../db/schema.js';
import { forbidden, notFound } from '../../../lib/http-error.js';

/** Who changes the video library: their organisation, and whether they run the instance. */
export interface SetEditor {
  organisationId: number;
  systemAdministrator: boolean;
}

type SetRow = Pick<typeof videoSets.$inferSelect, 'organisation_id' | 'shared'>;

/**
 * A set (and its videos) is changed by its own organisation, and a shared set by system
 * administrators alone: every organisation's participants follow it. Another organisation's own
 * set is not found, as if there were none.
 */
export function assertMayChangeSet(set: SetRow, editor: SetEditor): void {
  if (set.shared) {
    if (!editor.systemAdministrator) throw forbidden(messages.organisation.sharedSetReadOnly);
    return;
  }
  if (set.organisation_id !== editor.organisationId) throw notFound(messages.videoSet.notFound);
}
