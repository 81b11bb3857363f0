import { AUDIT_ACTIONS, type AuditAction, type AuditEvent } from '@pathway/contract';
import type { auditEvents } from '../../db/schema.js';

type AuditRow = typeof auditEvents.$inferSelect;

/** An audit record as staff read it, with its action's label. */
export function presentAuditEvent(row: AuditRow): AuditEvent {
  return {
    audit_event_id: row.audit_event_id,
    created_at: row.created_at.toISOString(),
    admin_user_id: row.admin_user_id,
    admin_user_name: row.admin_user_name,
    action: row.action,
    action_label: AUDIT_ACTIONS[row.action as AuditAction] ?? row.action,
    participant_id: row.participant_id,
    participant_ids: row.participant_ids ?? [],
    detail: row.detail,
    ip: row.ip,
  };
}
