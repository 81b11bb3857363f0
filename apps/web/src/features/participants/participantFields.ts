import { isIdentifiableField, type ParticipantFull } from '@pathway/contract';

// No React, no date picker, no zod here: the participant list reads this table at first paint.

/** The screens that show a participant's own fields. */
export type ParticipantScreen = 'grid' | 'details' | 'form';

/** How a field is typed in the add page and the edit dialog. */
export type ParticipantInput =
  | 'text'
  | 'tel'
  | 'email'
  | 'multiline'
  | 'date'
  | 'gender'
  | 'language'
  | 'nhs';

export interface ParticipantFieldSpec {
  /** The label of the spec (§2, §5): the same on every screen unless `labelOn` says otherwise. */
  label: string;
  labelOn?: Partial<Record<ParticipantScreen, string>>;
  input: ParticipantInput;
  /** Only full access receives or changes it: from the contract's IDENTIFIABLE_FIELDS. */
  identifiable: boolean;
  /** Changed in the edit dialog; `inline`: also by double-clicking its cell in the grid. */
  editable: { dialog: boolean; inline: boolean };
  /** Its column in the grid, if it has one (sortable by the server when listed in PARTICIPANT_SORTS). */
  grid?: { width?: number; minWidth?: number; flex?: number; sortable: boolean };
}

type OwnField =
  | 'first_name'
  | 'last_name'
  | 'date_of_birth'
  | 'nhs_number'
  | 'gender'
  | 'email'
  | 'phone_number'
  | 'phone_number_secondary'
  | 'address'
  | 'language'
  | 'notes';

const field = (name: OwnField, spec: Omit<ParticipantFieldSpec, 'identifiable'>) =>
  [name, { ...spec, identifiable: isIdentifiableField(name) }] as const;

const editableEverywhere = { dialog: true, inline: true };
const inDialog = { dialog: true, inline: false };

/**
 * A participant's own fields, in the grid's column order: one row per field, read by the grid's
 * columns, the details dialog, the add page and the edit dialog. A new field is a row here (and the
 * contract's declaration); each screen then places it.
 */
export const PARTICIPANT_FIELDS: Readonly<Record<OwnField, ParticipantFieldSpec>> = Object.fromEntries([
  field('first_name', {
    label: 'First name',
    input: 'text',
    editable: editableEverywhere,
    grid: { minWidth: 130, flex: 1, sortable: true },
  }),
  field('last_name', {
    label: 'Last name',
    input: 'text',
    editable: editableEverywhere,
    grid: { minWidth: 130, flex: 1, sortable: true },
  }),
  field('date_of_birth', {
    label: 'Date of birth',
    labelOn: { grid: 'DOB' },
    input: 'date',
    editable: editableEverywhere,
    grid: { width: 130, sortable: true },
  }),
  // Safe registration (issue 32): shown 485 777 3456, typed with or without spaces.
  field('nhs_number', {
    label: 'NHS number',
    input: 'nhs',
    editable: inDialog,
    grid: { width: 140, sortable: false },
  }),
  field('email', {
    label: 'Email',
    input: 'email',
    editable: editableEverywhere,
    grid: { minWidth: 180, flex: 1.2, sortable: false },
  }),
  field('phone_number', {
    label: 'Phone number',
    input: 'tel',
    editable: editableEverywhere,
    grid: { minWidth: 150, sortable: false },
  }),
  field('gender', {
    label: 'Gender',
    input: 'gender',
    editable: inDialog,
    grid: { width: 100, sortable: false },
  }),
  field('language', {
    label: 'Language',
    input: 'language',
    editable: inDialog,
    grid: { width: 120, sortable: false },
  }),
  field('phone_number_secondary', {
    label: 'Secondary phone number',
    input: 'tel',
    editable: inDialog,
  }),
  field('address', {
    label: 'Address',
    input: 'multiline',
    editable: inDialog,
  }),
  field('notes', {
    label: 'Notes',
    input: 'multiline',
    editable: inDialog,
  }),
]) as Record<OwnField, ParticipantFieldSpec>;

export type ParticipantOwnField = OwnField & keyof ParticipantFull;

/** A field's label as the given screen shows it. */
export function fieldLabel(name: OwnField, screen: ParticipantScreen): string {
  const spec = PARTICIPANT_FIELDS[name];
  return spec.labelOn?.[screen] ?? spec.label;
}

/** The fields with a grid column, in column order; identifiable ones only for full access. */
export function gridFields(seesIdentifiable: boolean): OwnField[] {
  return (Object.keys(PARTICIPANT_FIELDS) as OwnField[]).filter((name) => {
    const spec = PARTICIPANT_FIELDS[name];
    return spec.grid && (seesIdentifiable || !spec.identifiable);
  });
}
