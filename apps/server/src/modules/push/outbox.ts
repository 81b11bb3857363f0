import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { pushOutbox } from '../../db/schema.js';

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
 * Queues a push message; the delivery job (delivery.ts) sends queued rows. Writing to the outbox in the
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

/** The outbox's columns a set-based queue fills, in the order of queuedPushesSql's selects. */
const SET_BASED_COLUMNS = [
  'participant_id',
  'title',
  'body',
  'dedupe_key',
  'created_at',
] as const satisfies readonly (keyof typeof pushOutbox.$inferInsert)[];

/** One select of queued messages: an SQL value per column, over `from` (a relation and its where). */
export interface QueuedPushSelect {
  kind: PushKind;
  values: Record<(typeof SET_BASED_COLUMNS)[number], SQL>;
  from: SQL;
}

/**
 * Queues messages decided by a set-based statement (the daily check's reminders) inside that
 * statement, as a data-modifying CTE's insert: the rows of each select, `union all`. Messages so
 * queued carry no target token, as enqueuePush's with none. The columns are named from the Drizzle
 * table, so the compiler checks them against the schema.
 */
export function queuedPushesSql(selects: QueuedPushSelect[]): SQL {
  const columns = sql.join(
    [...SET_BASED_COLUMNS, 'kind' as const].map((c) => sql.identifier(pushOutbox[c].name)),
    sql`, `,
  );
  const rows = selects.map(
    (s) =>
      sql`select ${sql.join(
        SET_BASED_COLUMNS.map((c) => s.values[c]),
        sql`, `,
      )}, ${sql.raw(`'${s.kind}'`)} from ${s.from}`,
  );
  return sql`insert into ${pushOutbox} (${columns}) ${sql.join(rows, sql` union all `)}`;
}
