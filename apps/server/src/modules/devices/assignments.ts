import { and, eq, isNull } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { deviceAssignments } from '../../db/schema.js';

/**
 * The history of which tablet a participant had (device_assignments): a row opens wherever a
 * device is put on a participant (add, edit, re-referral followed by an edit) and closes wherever
 * one is taken off (edit, discharge). The participant's deletion or destruction removes the rows
 * with them. The uuid and name are copied: the device outlives the assignment.
 */
export async function openAssignment(
  tx: Database,
  participantId: number,
  device: { authorized_device_id: number; uuid: string; name: string },
  by: number | null,
  at: Date,
): Promise<void> {
  await tx.insert(deviceAssignments).values({
    participant_id: participantId,
    authorized_device_id: device.authorized_device_id,
    device_uuid: device.uuid,
    device_name: device.name,
    assigned_at: at,
    assigned_by: by,
  });
}

/** Closes the participant's open assignment (there is at most one: one device a participant). */
export async function closeAssignment(tx: Database, participantId: number, at: Date): Promise<void> {
  await tx
    .update(deviceAssignments)
    .set({ unassigned_at: at })
    .where(and(eq(deviceAssignments.participant_id, participantId), isNull(deviceAssignments.unassigned_at)));
}
