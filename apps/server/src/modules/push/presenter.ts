import type { PushOutboxEntry } from '@pathway/contract';
import type { pushOutbox } from '../../db/schema.js';

type OutboxRow = typeof pushOutbox.$inferSelect;

/** Titles and bodies are free text staff typed and may identify someone: full access only. */
export function presentPushMessage(row: OutboxRow, identifiable: boolean): PushOutboxEntry {
  return {
    push_id: row.push_id,
    kind: row.kind,
    ...(identifiable && { title: row.title, body: row.body }),
    status: row.status,
    attempts: row.attempts,
    last_error: row.last_error,
    created_at: row.created_at.toISOString(),
    sent_at: row.sent_at?.toISOString() ?? null,
  };
}
