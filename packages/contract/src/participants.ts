import { z } from 'zod';
import { formBoolean, isIsoDate, pageQuery, pagination, requiredText, todayIsoDate } from './common.js';
import { limits } from './limits.js';
import { messages } from './messages.js';
import { participantStatusFilter } from './life-cycle.js';
import { PARTICIPANT_STATUSES, WITHDRAWAL_REASONS } from './life-cycle-names.js';
import {
  ADHERENCE_STATES,
  CONTACT_FIELDS,
  NO_DEVICE,
  PARTICIPANT_IMPORT_COLUMNS,
  PARTICIPANT_SORTS,
  isIdentifiableField,
  isValidNhsNumber,
  nhsNumberDigits,
  type ContactField,
  type ParticipantSort,
} from './participant-names.js';

export * from './participant-names.js';

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

const m = messages.participant;
const r = messages.referral;

export const adherenceState = z.enum(ADHERENCE_STATES, {
  error: 'state must be one of onTrack, slightlybehind, behind',
});

// ---- field rules (spec §5), shared by add, edit and the grid's inline edit ----

export const firstName = requiredText(m.firstNameEmpty, limits.textMin, m.minTwo);
export const lastName = requiredText(m.lastNameEmpty, limits.textMin, m.minTwo);
export const address = requiredText(m.addressEmpty, limits.textMin, m.minTwo, 500);
/** Any phone on edit: required, at least 2 characters. */
export const phoneNumber = requiredText(m.phoneEmpty, limits.textMin, m.minTwo, 50);
/** On add: a plus sign and exactly 12 digits. */
export const phoneNumberOnAdd = phoneNumber.regex(limits.phoneOnAdd, { error: m.phoneFormat });

export function isDateOfBirthInRange(value: string, today: string = todayIsoDate()): boolean {
  return value >= limits.dobEarliest && value <= today;
}

/** Sent YYYY-MM-DD (a real calendar date); 1900-01-01 to today. */
export const dateOfBirth = z
  .string({ error: m.dobEmpty })
  .trim()
  .min(1, { error: m.dobEmpty, abort: true })
  .refine(isIsoDate, { error: m.dobFormat, abort: true })
  .refine((v) => isDateOfBirthInRange(v), { error: m.dobRange })
  .describe('YYYY-MM-DD, from 1900-01-01 to today');

const emptyToNull = (v: unknown) => (v === '' ? null : v);

/** Optional free text: absent, null or blank all mean "none". */
function optionalText(max: number, min = 0) {
  return z
    .string({ error: 'Must be text' })
    .trim()
    .max(max, { error: `Must be at most ${max} characters`, abort: true })
    .nullish()
    .transform((v) => (v ? v : null))
    .refine((v) => v === null || v.length >= min, { error: m.minTwo });
}

/**
 * Optional NHS number: absent, null or blank mean none; stored as its 10 digits, accepted with or
 * without spaces, checked with the NHS modulus-11 rule (participant-names.ts).
 */
export const nhsNumber = z
  .string({ error: messages.nhsNumber.format })
  .max(30, { error: messages.nhsNumber.format, abort: true })
  .nullish()
  .transform((v) => (v ? nhsNumberDigits(v) : null))
  .transform((v) => (v === '' ? null : v))
  .refine((v) => v === null || /^\d{10}$/.test(v), { error: messages.nhsNumber.format, abort: true })
  .refine((v) => v === null || isValidNhsNumber(v), { error: messages.nhsNumber.checkDigit })
  .describe('NHS number: 10 digits (spaces allowed, e.g. 485 777 3456), modulus-11 checked; null for none');

export const email = optionalText(limits.shortTextMax).refine(
  (v) => v === null || z.email().safeParse(v).success,
  { error: m.emailInvalid },
);
export const phoneNumberSecondary = optionalText(50, limits.textMin);
export const notes = optionalText(limits.longTextMax);

export const gender = z.preprocess(
  (v) => (typeof v === 'string' ? emptyToNull(v.trim().toLowerCase()) : v),
  z
    .enum(GENDERS, { error: m.genderInvalid })
    .nullish()
    .transform((v) => v ?? null),
);

const trimmed = (v: unknown) => (typeof v === 'string' ? v.trim() : v);

export const language = z.preprocess(
  trimmed,
  z.enum(LANGUAGES, {
    error: (issue) =>
      issue.input === undefined || issue.input === null || issue.input === ''
        ? m.languageEmpty
        : m.languageInvalid,
  }),
);

/** The device chosen on add: its uuid (lower-cased); "empty" is no device. */
export const deviceChoice = requiredText(m.deviceEmpty, limits.textMin, m.minTwo, 100)
  .transform((v) => v.toLowerCase())
  .refine((v) => v !== NO_DEVICE, { error: m.deviceEmpty });

export const referralFields = {
  programme_referred_to: z.preprocess(
    trimmed,
    z.enum(PROGRAMMES, {
      error: (issue) =>
        issue.input === undefined || issue.input === null || issue.input === ''
          ? r.programmeEmpty
          : r.programmeInvalid,
    }),
  ),
  referring_organisation: requiredText(r.organisationEmpty, limits.textMin, m.minTwo),
  referring_healthcare_professional: requiredText(r.professionalEmpty, limits.textMin, m.minTwo),
  referring_healthcare_professional_role: requiredText(r.professionalRoleEmpty, limits.textMin, m.minTwo),
  checked_contraindications_to_exercise: formBoolean(r.contraindicationsEmpty),
  smoker: formBoolean(r.selectionEmpty),
  diabetes: formBoolean(r.selectionEmpty),
  registered_deaf: formBoolean(r.selectionEmpty),
};

/** Referral data, edited through PATCH /api/participant/{id} (every field required when sent). */
export const referralBody = z.object(referralFields).meta({ id: 'ReferralEdit' });
export type ReferralBody = z.input<typeof referralBody>;

// ---- requests ----

/**
 * The participant's own fields with the add form's rules: declared once, and the create body, the
 * update body and the edit form are made from them. The server writes a validated body's keys as
 * the columns of the same names (unique_device_id, which names a device, apart), so each key is a
 * `participants` column; the server checks that when it starts. A body's key order is the order
 * its errors are reported in (the first one is the answer's message), so it is kept as it was.
 */
const participantDetailFields = {
  first_name: firstName,
  last_name: lastName,
  gender,
  date_of_birth: dateOfBirth,
  nhs_number: nhsNumber,
  email,
  phone_number: phoneNumberOnAdd,
  phone_number_secondary: phoneNumberSecondary,
  address,
  language,
};

export const createParticipantBody = z
  .object({
    ...participantDetailFields,
    unique_device_id: deviceChoice.describe('uuid of an unassigned authorised device'),
    notes,
    ...referralFields,
  })
  .meta({
    id: 'CreateParticipant',
    description:
      'A new participant and their referral. push_notification_id is not taken: it starts as the literal "empty".',
  });
export type CreateParticipantBody = z.input<typeof createParticipantBody>;
export type CreateParticipantInput = z.output<typeof createParticipantBody>;

// ---- Bulk referrals (issue 32) ----

/** One row of a bulk-referral CSV: exactly the add form's rules and messages, less the device. */
export const participantImportRow = createParticipantBody.omit({ unique_device_id: true });
export type ParticipantImportRow = z.output<typeof participantImportRow>;

/** Template columns a file may leave out: those the add form does not require. */
export const OPTIONAL_IMPORT_COLUMNS: readonly string[] = PARTICIPANT_IMPORT_COLUMNS.filter(
  (column) => participantImportRow.shape[column].safeParse(undefined).success,
);

export const participantImportQuery = z.object({
  dry_run: z
    .enum(['true', 'false'], { error: 'dry_run must be true or false' })
    .default('true')
    .transform((v) => v === 'true')
    .describe(
      'true (the default): check the file and import nothing; false: import it if every row is valid',
    ),
});

const importLine = z.number().int().describe('Line of the file, the header being line 1');

export const participantImportReport = z
  .object({
    dry_run: z.boolean(),
    /** Participant rows the file holds. */
    rows: z.number().int(),
    errors: z.array(
      z.object({
        line: importLine,
        column: z.string().nullable().describe('The template column, or null for the line as a whole'),
        message: z.string(),
      }),
    ),
    warnings: z.array(
      z.object({
        line: importLine,
        message: z.string(),
        participant_ids: z
          .array(z.number().int())
          .describe('Registered participants with the same first name, last name and date of birth'),
      }),
    ),
    participant_ids: z
      .array(z.number().int())
      .describe('The imported participants, in file order (none on a dry run)'),
  })
  .meta({ id: 'ParticipantImportReport' });
export type ParticipantImportReport = z.infer<typeof participantImportReport>;

/**
 * The create body's fields, every one optional. Three rules differ from add: any phone number of
 * 2 or more characters is kept, the device may be "empty" (detach), and the tablet's purge_cache.
 */
export const updateParticipantBody = z
  .object({
    ...participantDetailFields,
    phone_number: phoneNumber,
    notes,
    unique_device_id: z
      .string({ error: m.deviceEmpty })
      .trim()
      .min(1, { error: m.deviceEmpty, abort: true })
      .max(100, { error: 'Must be at most 100 characters', abort: true })
      .transform((v) => v.toLowerCase())
      .describe('uuid of an available device to assign, or the literal "empty" to detach the current one'),
    purge_cache: formBoolean('purge_cache must be true or false'),
    ...referralFields,
  })
  .partial()
  .meta({
    id: 'UpdateParticipant',
    description:
      'Only the fields sent change. Identifiable and referral fields need full access. The tablet (bearer token) may send purge_cache only.',
  });
export type UpdateParticipantBody = z.input<typeof updateParticipantBody>;
export type UpdateParticipantInput = z.output<typeof updateParticipantBody>;

/** The console's edit-participant form: the PATCH rules, with every field of the form present. */
export const editParticipantForm = z.object({
  ...participantDetailFields,
  phone_number: phoneNumber,
  // Required on add only: a participant without one may keep none.
  language: z.preprocess(trimmed, z.union([language, z.literal('')])),
  notes,
});
export type EditParticipantForm = z.input<typeof editParticipantForm>;

/** Sorting by these would reveal identifiable data to a basic-access user. */
export const IDENTIFIABLE_SORTS: readonly ParticipantSort[] = PARTICIPANT_SORTS.filter(isIdentifiableField);

export const participantListQuery = z.object({
  ...pageQuery(limits.participantsDefaultPerPage, limits.participantsMaxPerPage),
  state: adherenceState.optional(),
  status: participantStatusFilter,
  sort: z
    .enum(PARTICIPANT_SORTS, { error: `sort must be one of ${PARTICIPANT_SORTS.join(', ')}` })
    .default('participant_id'),
  order: z.enum(['asc', 'desc'], { error: 'order must be asc or desc' }).default('asc'),
  q: z
    .string()
    .trim()
    .max(100, { error: 'The search text must be at most 100 characters' })
    .optional()
    .describe('Search: participant id, device name or uuid; full access also names, email and phone'),
  after: z
    .string()
    .max(400, { error: messages.participant.cursorInvalid })
    .optional()
    .describe('nextCursor of the previous page: fetches the next page by keyset instead of by offset'),
});
export type ParticipantListQuery = z.output<typeof participantListQuery>;

/** The whole list as the grid shows it (filter, search, sort), without paging: streamed as CSV. */
export const participantExportQuery = participantListQuery.pick({
  state: true,
  status: true,
  sort: true,
  order: true,
  q: true,
});
export type ParticipantExportQuery = z.output<typeof participantExportQuery>;

/** A full-access admin's CSV: the grid's columns, contact data included. */
export const PARTICIPANT_CSV_FULL_COLUMNS = [
  'participant_id',
  'first_name',
  'last_name',
  'date_of_birth',
  'nhs_number',
  'email',
  'phone_number',
  'gender',
  'language',
  'name',
  'unique_device_id',
  'days_behind',
  'tracking',
  // Follow-up (issue 31): the last contact attempt (its note stays out: identifiable free text).
  'last_contact_at',
  'last_contact_method',
  'last_contact_outcome',
] as const;
export type ParticipantCsvColumn = (typeof PARTICIPANT_CSV_FULL_COLUMNS)[number];
/** Columns of the whole-list CSV a basic-access admin receives: the same, less anything identifiable. */
export const PARTICIPANT_CSV_BASIC_COLUMNS: readonly ParticipantCsvColumn[] =
  PARTICIPANT_CSV_FULL_COLUMNS.filter((column) => !isIdentifiableField(column));

export const participantIdParams = z.object({
  id: z.coerce
    .number({ error: 'The participant id must be a whole number' })
    .int({ error: 'The participant id must be a whole number' })
    .positive({ error: 'The participant id must be a whole number' })
    .max(2147483647, { error: 'The participant id is out of range' }),
});

// ---- responses ----

/**
 * A participant with contact data, for full-access admins only. The basic-access shape below is
 * this one less CONTACT_FIELDS, so a field declared identifiable can never reach basic access.
 */
export const participantFull = z
  .object({
    participant_id: z.number().int(),
    gender: z.enum(GENDERS).nullable(),
    language: z.string().nullable(),
    unique_device_id: z
      .string()
      .describe(
        'The assigned device\'s uuid (masked, …7f3a, for basic access: only full access assigns devices), or the literal "empty"',
      ),
    name: z.string().nullable().describe("The assigned device's name"),
    days_behind: z.number().int(),
    adherence_state: adherenceState
      .nullable()
      .describe(
        'The adherence class of days_behind; null when the participant has no programme (no adherence state, in no state filter)',
      ),
    push_notification_id: z.string().describe('FCM registration token, or the literal "empty"'),
    purge_cache: z.boolean(),
    tablet_last_contact_at: z
      .string()
      .nullable()
      .describe(
        "Tablet last in contact: the last call of the participant's tablet of any kind (to the minute); null when never",
      ),
    created_at: z.string(),
    updated_at: z.string(),
    status: z
      .enum(PARTICIPANT_STATUSES)
      .describe('active, or completed / withdrawn once discharged (the record is then read-only)'),
    discharged_on: z.string().nullable().describe('YYYY-MM-DD of the discharge; null while active'),
    discharge_reason: z
      .enum(WITHDRAWAL_REASONS)
      .nullable()
      .describe('Why the participant withdrew (status withdrawn only)'),
    first_name: z.string(),
    last_name: z.string(),
    date_of_birth: z.string().describe('YYYY-MM-DD'),
    nhs_number: z.string().nullable().describe('10 digits, or null'),
    email: z.string().nullable(),
    phone_number: z.string(),
    phone_number_secondary: z.string().nullable(),
    address: z.string(),
    notes: z.string().nullable(),
    last_ip_address: z.string().nullable(),
    discharge_note: z.string().nullable().describe('Free text given with the discharge'),
  })
  .meta({ id: 'Participant', description: 'A participant with contact data (full access)' });
export type ParticipantFull = z.infer<typeof participantFull>;

const withoutContactFields = Object.fromEntries(CONTACT_FIELDS.map((field) => [field, true])) as Record<
  ContactField,
  true
>;

/** What every signed-in admin may see: no identifiable field at all. */
export const participantBasic = participantFull
  .omit(withoutContactFields)
  .meta({ id: 'ParticipantBasic', description: 'A participant as a basic-access admin sees them' });
export type ParticipantBasic = z.infer<typeof participantBasic>;

export const participantView = z.union([participantFull, participantBasic]);
export type ParticipantView = ParticipantFull | ParticipantBasic;

/** Possible duplicates (issue 32): never a refusal, said with the saved participant. */
const possibleDuplicates = {
  possible_duplicates: z
    .array(z.number().int())
    .describe(
      'Other participants with the same first name, last name and date of birth (ignoring case and spaces): the console warns and links to them',
    ),
};

/** A participant just added or changed by staff, with the possible duplicates. */
export const participantSaved = z.union([
  participantFull.extend(possibleDuplicates).meta({ id: 'ParticipantSaved' }),
  participantBasic.extend(possibleDuplicates).meta({ id: 'ParticipantBasicSaved' }),
]);
export type ParticipantSaved = ParticipantView & { possible_duplicates: number[] };

export const referral = z
  .object({
    participant_id: z.number().int(),
    programme_referred_to: z.string().nullable(),
    referring_organisation: z.string().nullable(),
    referring_healthcare_professional: z.string().nullable(),
    referring_healthcare_professional_role: z.string().nullable(),
    checked_contraindications_to_exercise: z.boolean().nullable(),
    smoker: z.boolean().nullable(),
    diabetes: z.boolean().nullable(),
    registered_deaf: z.boolean().nullable(),
  })
  .meta({ id: 'Referral', description: 'Referral data of a participant (full access)' });
export type Referral = z.infer<typeof referral>;

export const participantPage = z
  .object({ data: z.array(participantView), pagination })
  .meta({ id: 'ParticipantPage' });
export type ParticipantPage = { data: ParticipantView[]; pagination: z.infer<typeof pagination> };
