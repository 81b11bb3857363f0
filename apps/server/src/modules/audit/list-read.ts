import { getTableName } from 'drizzle-orm';
import type { AuditAction } from '@pathway/contract';
import { auditEvents } from '../../db/schema.js';
import type { AuditActor } from './service.js';

type AuditColumn = keyof typeof auditEvents.$inferInsert;

/**
 * The insert that records a list read inside the statement that reads the list (a data-modifying
 * CTE), so that the rows and their audit record are one statement: one event naming every
 * participant the read returned, written only when it returned any. `rows` is the CTE of the listed
 * rows (with a `participant_id` column); `participantIds` and `detail` are SQL expressions over
 * them (aggregates), `param` adds a value to the caller's statement and gives its placeholder.
 * The columns are named from the Drizzle table, so a renamed or dropped column is a type error
 * here rather than a failed statement.
 */
export function listReadAuditSql(read: {
  action: AuditAction;
  actor: AuditActor;
  rows: string;
  participantIds: string;
  detail: string;
  param: (value: unknown) => string;
}): string {
  const values = {
    admin_user_id: `${read.param(read.actor.adminUserId)}::int`,
    admin_user_name: `${read.param(read.actor.userName)}::text`,
    action: `'${read.action}'`,
    participant_ids: read.participantIds,
    detail: read.detail,
    ip: `${read.param(read.actor.ip)}::text`,
  } satisfies Partial<Record<AuditColumn, string>>;
  const columns = Object.keys(values) as (keyof typeof values)[];
  return `insert into ${getTableName(auditEvents)} (${columns.map((c) => auditEvents[c].name).join(', ')})
      select ${columns.map((c) => values[c]).join(', ')}
      from ${read.rows} having count(*) > 0`;
}
