import { eq } from 'drizzle-orm';
import { messages } from '@pathway/contract';
import type { Database } from '../../db/client.js';
import { participants } from '../../db/schema.js';
import { conflict, notFound } from '../../lib/http-error.js';

/**
 * A discharged participant's record is read-only until re-referral: every change of it (details,
 * device, programme, messages) asks this first, in its own transaction. 404 when unknown, 409 with
 * the read-only message when discharged.
 */
export async function assertActiveParticipant(db: Database, participantId: number): Promise<void> {
  const [row] = await db
    .select({ status: participants.status })
    .from(participants)
    .where(eq(participants.participant_id, participantId));
  if (!row) throw notFound(messages.participant.notFound);
  if (row.status !== 'active') throw conflict(messages.lifeCycle.readOnly);
}
