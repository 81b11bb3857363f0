import {
  CONTACT_FIELDS,
  FIELD_PERMISSIONS,
  NO_DEVICE,
  OPEN_FIELDS,
  REFERRAL_FIELDS,
  adherenceOf,
  can,
  maskDeviceUuid,
  participantField,
  type ContactField,
  type OpenField,
  type ParticipantView,
  type Referral,
  type Role,
} from '@pathway/contract';
import type { participants } from '../../db/schema.js';
import type { ParticipantRow } from './repository.js';

/**
 * The participant answer's keys a role receives, in the answer's order: the fields of the
 * contract's field table without a field permission, what is computed, and the fields whose field
 * permission the role has (the contact fields, for full access).
 */
function answerKeysOf(role: Role): string[] {
  return [
    'participant_id',
    'site_id',
    ...OPEN_FIELDS,
    'unique_device_id',
    'name',
    'days_behind',
    'adherence_state',
    'push_notification_id',
    'purge_cache',
    'tablet_last_contact_at',
    'created_at',
    'updated_at',
    'status',
    'discharged_on',
    'discharge_reason',
    ...CONTACT_FIELDS.filter((name) => can(role, FIELD_PERMISSIONS[participantField(name).access!])),
  ];
}

/** A choice outside its options (a value written before the rule) is answered as none. */
const CHOICES = new Map<string, Set<unknown>>(
  OPEN_FIELDS.flatMap((name) => {
    const rule = participantField(name).rule;
    return participantField(name).answer?.type === 'choice' && rule && 'options' in rule
      ? [[name, new Set<unknown>(rule.options)] as const]
      : [];
  }),
);

/**
 * Per role, an answer with every key in place (null) and the table's fields it copies from the
 * row. Each answer starts as a copy of it: an object that gains its keys one by one under names
 * from a list turns slow to build and to serialise past a dozen of them (V8 leaves its fast
 * object layout), while a copy of one that has them all keeps it.
 */
interface AnswerShape {
  template: object;
  /** Fields copied as they are. */
  copied: readonly (OpenField | ContactField)[];
  /** Fields whose value must be one of the options. */
  chosen: readonly (readonly [OpenField, Set<unknown>])[];
}
const answerShapes = new Map<Role, AnswerShape>();
function answerShapeOf(role: Role) {
  let shape = answerShapes.get(role);
  if (!shape) {
    const keys = answerKeysOf(role);
    // JSON.parse builds the object with its keys in order and in the fast layout.
    const template = JSON.parse(JSON.stringify(Object.fromEntries(keys.map((key) => [key, null])))) as object;
    const fields = new Set<string>([...OPEN_FIELDS, ...CONTACT_FIELDS]);
    shape = {
      template,
      copied: keys.filter((key): key is OpenField | ContactField => fields.has(key) && !CHOICES.has(key)),
      chosen: OPEN_FIELDS.flatMap((name) => {
        const options = CHOICES.get(name);
        return options ? [[name, options] as const] : [];
      }),
    };
    answerShapes.set(role, shape);
  }
  return shape;
}

/**
 * The one place that decides what an admin sees of a participant: the fields of the contract's
 * field table that the role opens (a basic-access admin gets no identifiable field at all, not
 * even empty ones) and what is computed. Referral data is presented on its own route.
 */
export function presentParticipant(row: ParticipantRow, role: Role): ParticipantView {
  const { template, copied, chosen } = answerShapeOf(role);
  const answer: Record<string, unknown> = { ...template };
  for (const name of copied) answer[name] = row[name];
  for (const [name, options] of chosen) answer[name] = options.has(row[name]) ? row[name] : null;
  answer.participant_id = row.participant_id;
  answer.site_id = row.site_id;
  // Call 1 with a whole uuid answers the participant's name: basic access sees it masked.
  answer.unique_device_id =
    row.device_uuid === null
      ? NO_DEVICE
      : can(role, FIELD_PERMISSIONS.identifiable)
        ? row.device_uuid
        : maskDeviceUuid(row.device_uuid);
  answer.name = row.device_name;
  answer.days_behind = row.days_behind;
  answer.adherence_state = row.has_programme ? adherenceOf(row.days_behind) : null;
  answer.push_notification_id = row.push_notification_id;
  answer.purge_cache = row.purge_cache;
  answer.tablet_last_contact_at = row.tablet_last_contact_at?.toISOString() ?? null;
  answer.created_at = row.created_at.toISOString();
  answer.updated_at = row.updated_at.toISOString();
  answer.status = row.status;
  answer.discharged_on = row.discharged_on;
  answer.discharge_reason = row.discharge_reason;
  return answer as ParticipantView;
}

export function presentReferral(row: typeof participants.$inferSelect): Referral {
  const referral: Record<string, unknown> = { participant_id: row.participant_id };
  for (const name of REFERRAL_FIELDS) referral[name] = row[name];
  return referral as Referral;
}
