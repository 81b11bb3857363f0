// Without zod: the console's participant list needs these names and rules only, and a module is
// bundled whole, so the schemas live apart (participants.ts re-exports this module, as roles.ts
// does role-names.ts).
import { participantFieldsWhere, type FieldRule, type ParticipantFieldsWhere } from './participant-fields.js';
import type { ParticipantFull, ParticipantView } from './participants.js';

export * from './participant-fields.js';

/** The literal a participant's unique_device_id holds when no device is assigned. */
export const NO_DEVICE = 'empty';

/** Adherence classes of days_behind: 0 on track, 1 to 2 slightly behind, 3 or more behind. */
export const ADHERENCE_STATES = ['onTrack', 'slightlybehind', 'behind'] as const;
export type AdherenceState = (typeof ADHERENCE_STATES)[number];

export function isAdherenceState(value: unknown): value is AdherenceState {
  return (ADHERENCE_STATES as readonly unknown[]).includes(value);
}

/** The hash reading of the spec: onTrack, slightlybehind, and any other value means behind. */
export function stateFromHash(value: string): AdherenceState {
  if (value === 'onTrack') return 'onTrack';
  if (value === 'slightlybehind') return 'slightlybehind';
  return 'behind';
}

export function adherenceOf(daysBehind: number): AdherenceState {
  if (daysBehind <= 0) return 'onTrack';
  if (daysBehind <= 2) return 'slightlybehind';
  return 'behind';
}

/**
 * Identifiable fields: only full-access users ever receive or change them (spec §6), and no log
 * line holds them. IDENTIFIABLE_FIELDS is the one list every rule reads: the logger's redaction
 * paths, the basic-access answers (participantBasic, the basic CSV columns, the sorts basic access
 * may not use), the audit's field names and the security tests are all derived from it, and it is
 * derived from the field table (participant-fields.ts): a field marked identifiable there is in it.
 * CONTACT_FIELDS travel with the participant, and REFERRAL_FIELDS on the referral route.
 */
export type IdentifiableField = ParticipantFieldsWhere<{ access: 'identifiable' }>;
export type ContactField = ParticipantFieldsWhere<{ access: 'identifiable'; answer: { in: 'participant' } }>;
export type ReferralField = ParticipantFieldsWhere<{ answer: { in: 'referral' } }>;
export const CONTACT_FIELDS: readonly ContactField[] = participantFieldsWhere<ContactField>(
  (field) => field.access === 'identifiable' && field.answer?.in === 'participant',
);
export const REFERRAL_FIELDS: readonly ReferralField[] = participantFieldsWhere<ReferralField>(
  (field) => field.answer?.in === 'referral',
);
export const IDENTIFIABLE_FIELDS: readonly IdentifiableField[] = participantFieldsWhere<IdentifiableField>(
  (field) => field.access === 'identifiable',
);

/** The fields of the participant answer every admin receives: no field permission needed. */
export type OpenField = Exclude<ParticipantFieldsWhere<{ answer: { in: 'participant' } }>, ContactField>;
export const OPEN_FIELDS: readonly OpenField[] = participantFieldsWhere<OpenField>(
  (field) => field.answer?.in === 'participant' && field.access === undefined,
);

export function isIdentifiableField(name: string): name is IdentifiableField {
  return (IDENTIFIABLE_FIELDS as readonly string[]).includes(name);
}

/** The fields the list sorts by: those whose grid column is sortable in the field table. */
export type SortableField = ParticipantFieldsWhere<{ grid: { sortable: true } }>;
export const SORTABLE_FIELDS: readonly SortableField[] = participantFieldsWhere<SortableField>(
  (field) => field.grid?.sortable === true,
);

/**
 * The list's sorts: what the server computes (the id, days behind, the tablet's last contact), then
 * every sortable field of the table. Nothing else declares a sort.
 */
export const PARTICIPANT_SORTS = [
  'participant_id',
  'days_behind',
  'tablet_last_contact_at',
  ...SORTABLE_FIELDS,
] as const;
export type ParticipantSort = (typeof PARTICIPANT_SORTS)[number];

/** The fields the search box looks in (see `search` in the field table). */
export type SearchableField = ParticipantFieldsWhere<{ search: true }>;
export const SEARCHABLE_FIELDS: readonly SearchableField[] = participantFieldsWhere<SearchableField>(
  (field) => field.search === true,
);

/** Words for the adherence classes, and for a participant who has none yet. */
export const ADHERENCE_LABELS: Record<AdherenceState, string> = {
  onTrack: 'On track',
  slightlybehind: 'Slightly behind',
  behind: 'Behind',
};
export const NO_PROGRAMME_LABEL = 'No programme';
export const NO_TABLET_LABEL = 'No tablet';

/** The response header that carries how many rows the export will hold, for a progress bar. */
export const EXPORT_TOTAL_HEADER = 'x-total-count';

export function hasContactData(p: ParticipantView): p is ParticipantFull {
  return 'first_name' in p;
}

// ---- Safe registration: the NHS number, written once for the server, forms and import ----

/** An NHS number as typed: the digits, with the spaces (any, or the usual 3-3-4) taken out. */
export function nhsNumberDigits(value: string): string {
  return value.replace(/\s+/g, '');
}

/**
 * The NHS modulus-11 check of 10 digits: the first nine weighted 10 down to 2, the check digit is
 * 11 less the sum's remainder by 11 (11 counts as 0; 10 means no valid number has these nine).
 */
export function isValidNhsNumber(digits: string): boolean {
  if (!/^\d{10}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += Number(digits[i]) * (10 - i);
  const check = 11 - (sum % 11);
  if (check === 10) return false;
  return (check === 11 ? 0 : check) === Number(digits[9]);
}

/** Shown as the NHS writes it: 485 777 3456. */
export function formatNhsNumber(digits: string | null): string {
  if (digits === null) return '';
  return /^\d{10}$/.test(digits) ? `${digits.slice(0, 3)} ${digits.slice(3, 6)} ${digits.slice(6)}` : digits;
}

/**
 * The columns of a bulk-referral CSV, in the template's order: the fields the add request takes,
 * less the device (imported participants wait for one).
 */
export type ParticipantImportColumn = Exclude<
  ParticipantFieldsWhere<{ rule: FieldRule }>,
  ParticipantFieldsWhere<{ rule: { kind: 'device' } }>
>;
export const PARTICIPANT_IMPORT_COLUMNS: readonly ParticipantImportColumn[] =
  participantFieldsWhere<ParticipantImportColumn>(
    (field) => field.rule !== undefined && field.rule.kind !== 'device',
  );
