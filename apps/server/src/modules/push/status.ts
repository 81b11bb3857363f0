import { desc, eq } from 'drizzle-orm';
import { limits, messages } from '@pathway/contract';
import type { Database } from '../../db/client.js';
import { participants, pushOutbox } from '../../db/schema.js';
import { notFound } from '../../lib/http-error.js';

type OutboxRow = typeof pushOutbox.$inferSelect;

/** The most recent outbox rows of one participant, newest first; 404 for an unknown participant. */
export async function recentPushMessages(db: Database, participantId: number): Promise<OutboxRow[]> {
  const [participant] = await db
    .select({ id: participants.participant_id })
    .from(participants)
    .where(eq(participants.participant_id, participantId));
  if (!participant) throw notFound(messages.participant.notFound);
  return db
    .select()
    .from(pushOutbox)
    .where(eq(pushOutbox.participant_id, participantId))
    .orderBy(desc(pushOutbox.push_id))
    .limit(limits.recentPushMessages);
}
