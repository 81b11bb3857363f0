// Without zod, as participant-names.ts: the console's participant list reads this table at first
// paint. The rules are data here; participants.ts makes the zod schemas from them.
import { limits } from './limits.js';
import { messages } from './messages.js';
import type { FieldPermission } from './permissions.js';

/** The 21 choices of the add form, in the spec's order. */
export const LANGUAGES = [
  'English',
  'Polish',
  'Urdu',
  'Bengali',
  'Gujarati',
  'Arabic',
  'French',
  'Mandarin',
  'Cantonese',
  'Portuguese',
  'Spanish',
  'Tamil',
  'Turkish',
  'Italian',
  'Somali',
  'Lithuanian',
  'German',
  'Persian',
  'Filipino',
  'Romanian',
  'Other',
] as const;
export type Language = (typeof LANGUAGES)[number];

export const GENDERS = ['male', 'female'] as const;
export const PROGRAMMES = ['pad-programme'] as const;

type Options = readonly [string, ...string[]];

/**
 * What a request may send for a field, with its messages (spec §5). Most rules are a kind and its
 * messages; the date of birth, the NHS number and the device have rules of their own, written in
 * participants.ts (dateOfBirth, nhsNumber, deviceChoice), named here by their kind.
 */
export type FieldRule =
  /** Required text of at least 2 characters; `onAdd` adds a format the add form (and import) checks. */
  | { kind: 'text'; empty: string; max?: number; onAdd?: { pattern: RegExp; message: string } }
  /** Optional text: absent, null or blank mean none; `email` checks an address when given. */
  | { kind: 'optionalText'; max: number; min?: number; email?: string }
  /** One of `options`, required (`empty` when missing); `optionalOnEdit`: the edit form may leave it blank. */
  | { kind: 'choice'; options: Options; empty: string; invalid: string; optionalOnEdit?: true }
  /** One of `options` in any case, or none. */
  | { kind: 'optionalChoice'; options: Options; invalid: string }
  /** A yes/no answer (true/false, or the text "true"/"false" from a form or a CSV). */
  | { kind: 'yesNo'; empty: string }
  | { kind: 'dateOfBirth' }
  | { kind: 'nhsNumber' }
  | { kind: 'device' };

/** How the console's forms take a field. */
export type ParticipantInput =
  | 'text'
  | 'tel'
  | 'email'
  | 'multiline'
  | 'date'
  | 'gender'
  | 'language'
  | 'nhs'
  | 'device'
  | 'programme'
  | 'yesNo';

/** The screens that show a participant's fields. */
export type ParticipantScreen = 'grid' | 'details' | 'form';

/** The add page's sections, in page order; referral fields also make the edit-referral dialog. */
export const PARTICIPANT_FORM_SECTIONS = {
  personal: 'Personal details',
  contact: 'Contact',
  device: 'Device and language',
  referral: 'Referral',
} as const;
export type ParticipantFormSection = keyof typeof PARTICIPANT_FORM_SECTIONS;

export interface ParticipantFieldSpec {
  /** The label of the spec (§2, §3, §5): the same on every screen unless `labelOn` says otherwise. */
  label: string;
  labelOn?: Partial<Record<ParticipantScreen, string>>;
  /**
   * The field permission a role needs to receive the field and to change it (FIELD_PERMISSIONS):
   * 'identifiable' fields never reach basic access, its logs or its CSV (spec §6).
   */
  access?: FieldPermission;
  /** Taken by the add and edit requests (and the bulk import): the rule and its messages. */
  rule?: FieldRule;
  /** Which answer carries the field, and its JSON type there. */
  answer?: {
    in: 'participant' | 'referral';
    type: 'string' | 'boolean' | 'choice';
    nullable: boolean;
    description?: string;
  };
  /** The console's forms: how it is typed, its section and place on the add page. */
  form?: {
    input: ParticipantInput;
    section: ParticipantFormSection;
    /** Place on the add page (and, for the fields it shows, in the edit dialog and the details). */
    position: number;
    /** Spans the form's two columns: in the edit dialog only (placed last there), or on both forms. */
    wide?: 'edit' | 'both';
    hint?: string;
    /** A hint of the add page only (its format is an add rule). */
    addHint?: string;
  };
  /** Changed in the edit dialog; `inline`: also by double-clicking its cell in the grid. */
  editable?: { dialog: boolean; inline: boolean };
  /**
   * Its column in the grid and in the whole-list CSV, at `position` among the participant's own
   * fields. `sortable`: the list sorts by it (the sort is in PARTICIPANT_SORTS, the server pages it
   * by keyset over an index on the column and participant_id: CONTRIBUTING, adding a sortable field).
   */
  grid?: { position: number; width?: number; minWidth?: number; flex?: number; sortable: boolean };
  /**
   * The list's search box finds a participant by a part of this field's text (any case); a field
   * with an `access` only for roles that have it.
   */
  search?: true;
  /** Not a column of `participants` (every other field is the column of its name). */
  notAColumn?: true;
}

const m = messages.participant;
const r = messages.referral;
const editableEverywhere = { dialog: true, inline: true } as const;
const inDialog = { dialog: true, inline: false } as const;
const optionalText = { type: 'string', nullable: true } as const;
const requiredText = { type: 'string', nullable: false } as const;
const referralText = { in: 'referral', type: 'string', nullable: true } as const;
const referralYesNo = { in: 'referral', type: 'boolean', nullable: true } as const;

/**
 * Every field of a participant that staff enter or see, in the order of the add request (the order
 * its errors are reported in, the first one being the answer's message) and of the bulk-import
 * template. Request bodies, answers, forms, details, grid and CSV columns, the identifiable lists
 * and the server's row reading are all made from this table: a new field is an entry here, its
 * column in the server's db/schema.ts and a migration. The computed parts of a participant
 * (adherence, status, timestamps, the tablet's last contact) are in the answer schema itself.
 */
export const PARTICIPANT_FIELDS = {
  first_name: {
    label: 'First name',
    access: 'identifiable',
    rule: { kind: 'text', empty: m.firstNameEmpty },
    answer: { in: 'participant', ...requiredText },
    form: { input: 'text', section: 'personal', position: 1 },
    editable: editableEverywhere,
    grid: { position: 1, minWidth: 130, flex: 1, sortable: true },
    search: true,
  },
  last_name: {
    label: 'Last name',
    access: 'identifiable',
    rule: { kind: 'text', empty: m.lastNameEmpty },
    answer: { in: 'participant', ...requiredText },
    form: { input: 'text', section: 'personal', position: 2 },
    editable: editableEverywhere,
    grid: { position: 2, minWidth: 130, flex: 1, sortable: true },
    search: true,
  },
  gender: {
    label: 'Gender',
    rule: { kind: 'optionalChoice', options: GENDERS, invalid: m.genderInvalid },
    answer: { in: 'participant', type: 'choice', nullable: true },
    form: { input: 'gender', section: 'personal', position: 4 },
    editable: inDialog,
    grid: { position: 7, width: 100, sortable: false },
  },
  date_of_birth: {
    label: 'Date of birth',
    labelOn: { grid: 'DOB' },
    access: 'identifiable',
    rule: { kind: 'dateOfBirth' },
    answer: { in: 'participant', ...requiredText, description: 'YYYY-MM-DD' },
    form: { input: 'date', section: 'personal', position: 3 },
    editable: editableEverywhere,
    grid: { position: 3, width: 130, sortable: true },
  },
  // Safe registration: shown 485 777 3456, typed with or without spaces.
  nhs_number: {
    label: 'NHS number',
    access: 'identifiable',
    rule: { kind: 'nhsNumber' },
    answer: { in: 'participant', ...optionalText, description: '10 digits, or null' },
    form: {
      input: 'nhs',
      section: 'personal',
      position: 5,
      hint: '10 digits, with or without spaces, e.g. 943 476 5919 (optional)',
    },
    editable: inDialog,
    grid: { position: 4, width: 140, sortable: false },
  },
  email: {
    label: 'Email',
    access: 'identifiable',
    rule: { kind: 'optionalText', max: limits.shortTextMax, email: m.emailInvalid },
    answer: { in: 'participant', ...optionalText },
    form: { input: 'email', section: 'contact', position: 8 },
    editable: editableEverywhere,
    grid: { position: 5, minWidth: 180, flex: 1.2, sortable: false },
    search: true,
  },
  phone_number: {
    label: 'Phone number',
    access: 'identifiable',
    // Any phone of 2 or more characters on edit; a plus sign and exactly 12 digits on add.
    rule: {
      kind: 'text',
      empty: m.phoneEmpty,
      max: 50,
      onAdd: { pattern: limits.phoneOnAdd, message: m.phoneFormat },
    },
    answer: { in: 'participant', ...requiredText },
    form: {
      input: 'tel',
      section: 'contact',
      position: 6,
      addHint: 'A plus sign, the country code and number: 12 digits, e.g. +447700900123',
    },
    editable: editableEverywhere,
    grid: { position: 6, minWidth: 150, sortable: false },
    search: true,
  },
  phone_number_secondary: {
    label: 'Secondary phone number',
    access: 'identifiable',
    rule: { kind: 'optionalText', max: 50, min: limits.textMin },
    answer: { in: 'participant', ...optionalText },
    form: { input: 'tel', section: 'contact', position: 7 },
    editable: inDialog,
  },
  address: {
    label: 'Address',
    access: 'identifiable',
    rule: { kind: 'text', empty: m.addressEmpty, max: 500 },
    answer: { in: 'participant', ...requiredText },
    form: { input: 'multiline', section: 'contact', position: 9, wide: 'edit' },
    editable: inDialog,
  },
  language: {
    label: 'Language',
    rule: {
      kind: 'choice',
      options: LANGUAGES,
      empty: m.languageEmpty,
      invalid: m.languageInvalid,
      // A participant registered without one (before the rule, or imported) may keep none.
      optionalOnEdit: true,
    },
    answer: { in: 'participant', ...optionalText },
    form: { input: 'language', section: 'device', position: 11 },
    editable: inDialog,
    grid: { position: 8, width: 120, sortable: false },
  },
  /** The device chosen on add (its uuid, "empty" for none): changed later by its own dialog. */
  unique_device_id: {
    label: 'Device',
    access: 'deviceAssignment',
    rule: { kind: 'device' },
    form: { input: 'device', section: 'device', position: 10 },
    notAColumn: true,
  },
  notes: {
    label: 'Notes',
    access: 'identifiable',
    rule: { kind: 'optionalText', max: limits.longTextMax },
    answer: { in: 'participant', ...optionalText },
    form: { input: 'multiline', section: 'device', position: 12, wide: 'both' },
    editable: inDialog,
  },
  last_ip_address: {
    label: 'Last IP address',
    access: 'identifiable',
    answer: { in: 'participant', ...optionalText },
  },
  /** Free text given with a discharge, set by the discharge route. */
  discharge_note: {
    label: 'Discharge note',
    access: 'identifiable',
    answer: { in: 'participant', ...optionalText, description: 'Free text given with the discharge' },
  },
  programme_referred_to: {
    label: 'Programme referred to',
    access: 'identifiable',
    rule: { kind: 'choice', options: PROGRAMMES, empty: r.programmeEmpty, invalid: r.programmeInvalid },
    answer: referralText,
    form: { input: 'programme', section: 'referral', position: 13 },
  },
  referring_organisation: {
    label: 'Referring organisation',
    access: 'identifiable',
    rule: { kind: 'text', empty: r.organisationEmpty },
    answer: referralText,
    form: { input: 'text', section: 'referral', position: 14 },
  },
  referring_healthcare_professional: {
    label: 'Referring healthcare professional',
    access: 'identifiable',
    rule: { kind: 'text', empty: r.professionalEmpty },
    answer: referralText,
    form: { input: 'text', section: 'referral', position: 15 },
  },
  referring_healthcare_professional_role: {
    label: 'Referring healthcare professional role',
    labelOn: { details: 'Professional role' },
    access: 'identifiable',
    rule: { kind: 'text', empty: r.professionalRoleEmpty },
    answer: referralText,
    form: { input: 'text', section: 'referral', position: 16 },
  },
  checked_contraindications_to_exercise: {
    label: 'Contraindications to exercise checked',
    access: 'identifiable',
    rule: { kind: 'yesNo', empty: r.contraindicationsEmpty },
    answer: referralYesNo,
    form: { input: 'yesNo', section: 'referral', position: 17 },
  },
  smoker: {
    label: 'Smoker',
    access: 'identifiable',
    rule: { kind: 'yesNo', empty: r.selectionEmpty },
    answer: referralYesNo,
    form: { input: 'yesNo', section: 'referral', position: 18 },
  },
  diabetes: {
    label: 'Diabetes',
    access: 'identifiable',
    rule: { kind: 'yesNo', empty: r.selectionEmpty },
    answer: referralYesNo,
    form: { input: 'yesNo', section: 'referral', position: 19 },
  },
  registered_deaf: {
    label: 'Registered deaf',
    access: 'identifiable',
    rule: { kind: 'yesNo', empty: r.selectionEmpty },
    answer: referralYesNo,
    form: { input: 'yesNo', section: 'referral', position: 20 },
  },
} as const satisfies Record<string, ParticipantFieldSpec>;

type Fields = typeof PARTICIPANT_FIELDS;
export type ParticipantFieldName = keyof Fields;
/** The names of the fields whose entry has the shape `C`. */
export type ParticipantFieldsWhere<C> = {
  [K in keyof Fields]: Fields[K] extends C ? K : never;
}[keyof Fields];

const FIELD_NAMES = Object.keys(PARTICIPANT_FIELDS) as ParticipantFieldName[];

/** The fields, in the table's order, whose entry satisfies `test`. */
export function participantFieldsWhere<N extends ParticipantFieldName>(
  test: (spec: ParticipantFieldSpec) => boolean,
): N[] {
  return FIELD_NAMES.filter((name) => test(PARTICIPANT_FIELDS[name])) as N[];
}

/** A field's entry, read through its general type (every property optional but the label). */
export function participantField(name: ParticipantFieldName): ParticipantFieldSpec {
  return PARTICIPANT_FIELDS[name];
}

/** A field's label as the given screen shows it. */
export function fieldLabel(name: ParticipantFieldName, screen: ParticipantScreen): string {
  const spec = participantField(name);
  return spec.labelOn?.[screen] ?? spec.label;
}

/** The fields with a grid column (and a column in the whole-list CSV), in the grid's order. */
export type ParticipantGridField = ParticipantFieldsWhere<{ grid: object }>;
export const PARTICIPANT_GRID_FIELDS: readonly ParticipantGridField[] =
  participantFieldsWhere<ParticipantGridField>((field) => field.grid !== undefined).sort(
    (a, b) => participantField(a).grid!.position - participantField(b).grid!.position,
  );
