import { messages } from '@pathway/contract';
import type { videoSets } from '../../../db/schema.js';
import { instanceScope, withScope } from '../../../db/scope.js';
import { forbidden, notFound } from '../../../lib/http-error.js';

/** Who changes the video library: their organisation, and whether they run the instance. */
export interface SetEditor {
  organisationId: number;
  systemAdministrator: boolean;
  /** Sees every site of the organisation: only such an admin deletes from its library. */
  everySite: boolean;
}

type SetRow = Pick<typeof videoSets.$inferSelect, 'organisation_id' | 'shared'>;

/**
 * A set (and its videos) is changed by its own organisation, and a shared set by system
 * administrators alone: every organisation's participants follow it. Another organisation's own
 * set is not found, as if there were none.
 */
export function assertMayChangeSet(set: SetRow, editor: SetEditor, deleting = false): void {
  // Deleting a set or a video moves or ends the programmes of everyone on it, at every site of the
  // organisation: an admin limited to some sites would neither see them counted nor see them go.
  if (deleting && !editor.everySite) throw forbidden(messages.organisation.libraryDeleteEverySite);
  if (set.shared) {
    if (!editor.systemAdministrator) throw forbidden(messages.organisation.sharedSetReadOnly);
    return;
  }
  if (set.organisation_id !== editor.organisationId) throw notFound(messages.videoSet.notFound);
}

/**
 * Runs a change to a set in the scope it reaches: a shared set's participants are every
 * organisation's, so deleting one of its videos (which moves those on its day) or the set itself
 * is the instance's work, done by a system administrator; any other set's, the editor's own scope.
 */
export function inReachOf<T>(set: SetRow, work: () => Promise<T>): Promise<T> {
  return set.shared ? withScope(instanceScope('shared video library'), work) : work();
}
