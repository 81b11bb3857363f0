import type { Database } from '../db/client.js';
import { pushOutbox } from '../db/schema.js';

export type PushKind = 'manual' | 'missed-video' | 'new-video' | 'progress-forward';

export interface PushMessage {
  participantId: number | null;
  /** The tablet's FCM registration token; null while the participant has none ("empty"). */
  targetToken: string | null;
  title: string;
  body: string;
  kind: PushKind;
  /** Admin who wrote it, for messages sent from the console. */
  createdBy?: number | null;
  /** One message per key, for reminders that must not be sent twice. */
  dedupeKey?: string | null;
}

/**
 * Queues a push message; a sender (modules/push) delivers queued rows. Writing to the outbox in the
 * caller's transaction means a message exists exactly when the change that caused it does.
 * Answers the new row's id, or null when a message with the same dedupe key was already queued.
 */
export async function enqueuePush(db: Database, message: PushMessage): Promise<number | null> {
  const [row] = await db
    .insert(pushOutbox)
    .values({
      participant_id: message.participantId,
      target_token: message.targetToken,
      title: message.title,
      body: message.body,
      kind: message.kind,
      created_by: message.createdBy ?? null,
      dedupe_key: message.dedupeKey ?? null,
      status: 'queued',
    })
    .onConflictDoNothing()
    .returning({ push_id: pushOutbox.push_id });
  return row?.push_id ?? null;
}
