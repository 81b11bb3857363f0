import {
  can,
  messages,
  type ContactEntry,
  type FollowupEntry,
  type FollowupReason,
  type ParticipantMessagePage,
  type Role,
} from '@pathway/contract';
import type { participantContacts, pushOutbox } from '../../db/schema.js';
import type { WorklistRow } from './worklist.js';

type ContactRow = typeof participantContacts.$inferSelect;
type OutboxRow = typeof pushOutbox.$inferSelect;

/** Notes are identifiable free text: full access reads them, basic access sees that one exists. */
export function presentContact(row: ContactRow, role: Role): ContactEntry {
  return {
    contact_id: row.contact_id,
    participant_id: row.participant_id,
    method: row.method as ContactEntry['method'],
    outcome: row.outcome as ContactEntry['outcome'],
    ...(can(role, 'participants.identifiable') && { note: row.note }),
    has_note: row.note !== null,
    next_followup_on: row.next_followup_on,
    reasons: row.reasons as FollowupReason[],
    admin_user_name: row.admin_user_name,
    created_at: row.created_at.toISOString(),
  };
}

export function presentWorklistRow(row: WorklistRow, identifiable: boolean): FollowupEntry {
  const basic = {
    participant_id: row.participant_id,
    reasons: row.reasons,
    since: row.since,
    since_exact: row.since_exact,
    days_behind: row.days_behind,
    device_name: row.device_name,
    tablet_last_contact_at: row.tablet_last_contact_at?.toISOString() ?? null,
    last_contact_at: row.last_contact_at?.toISOString() ?? null,
    last_contact_method: row.last_contact_method,
    last_contact_outcome: row.last_contact_outcome,
    next_followup_on: row.next_followup_on,
  };
  if (!identifiable) return basic;
  return {
    ...basic,
    first_name: row.first_name ?? '',
    last_name: row.last_name ?? '',
    phone_number: row.phone_number ?? '',
    phone_number_secondary: row.phone_number_secondary,
  };
}

/** The push texts rule (modules/push/presenter.ts): titles and bodies for full access only; tokens by their tail. */
export function presentMessage(
  row: OutboxRow,
  identifiable: boolean,
): ParticipantMessagePage['data'][number] {
  const answered = row.status === messages.push.sent ? 'accepted' : row.last_error;
  return {
    push_id: row.push_id,
    kind: row.kind,
    ...(identifiable && { title: row.title, body: row.body }),
    status: row.status,
    provider_answer: answered,
    attempts: row.attempts,
    queued_at: row.created_at.toISOString(),
    sent_at: row.sent_at?.toISOString() ?? null,
    token_tail: row.target_token && row.target_token !== 'empty' ? row.target_token.slice(-6) : null,
  };
}
