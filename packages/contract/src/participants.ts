import { z } from 'zod';
import { formBoolean, isIsoDate, pageQuery, pagination, requiredText, todayIsoDate } from './common.js';
import { limits } from './limits.js';
import { messages } from './messages.js';
import { participantStatusFilter } from './life-cycle.js';
import { siteFilter, siteId } from './organisations.js';
import { PARTICIPANT_STATUSES, WITHDRAWAL_REASONS } from './life-cycle-names.js';
import {
  ADHERENCE_STATES,
  CONTACT_FIELDS,
  NO_DEVICE,
  type PARTICIPANT_FIELDS,
  PARTICIPANT_IMPORT_COLUMNS,
  PARTICIPANT_SORTS,
  OPEN_FIELDS,
  REFERRAL_FIELDS,
  isIdentifiableField,
  isValidNhsNumber,
  nhsNumberDigits,
  participantField,
  participantFieldsWhere,
  PARTICIPANT_GRID_FIELDS,
  type ContactField,
  type FieldRule,
  type ParticipantFieldName,
  type ParticipantFieldsWhere,
  type ParticipantSort,
  type ReferralField,
} from './participant-names.js';

export * from './participant-names.js';

const m = messages.participant;

export const adherenceState = z.enum(ADHERENCE_STATES, {
  error: 'state must be one of onTrack, slightlybehind, behind',
});

// ---- field rules (spec §5): the schema of each kind of rule in the field table ----

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
const trimmed = (v: unknown) => (typeof v === 'string' ? v.trim() : v);

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

/** The device chosen on add: its uuid (lower-cased); "empty" is no device. */
export const deviceChoice = requiredText(m.deviceEmpty, limits.textMin, m.minTwo, 100)
  .transform((v) => v.toLowerCase())
  .refine((v) => v !== NO_DEVICE, { error: m.deviceEmpty })
  .describe('uuid of an unassigned authorised device');

/** The device on update: another one's uuid, or "empty" to detach. */
const deviceOnUpdate = z
  .string({ error: m.deviceEmpty })
  .trim()
  .min(1, { error: m.deviceEmpty, abort: true })
  .max(100, { error: 'Must be at most 100 characters', abort: true })
  .transform((v) => v.toLowerCase())
  .describe('uuid of an available device to assign, or the literal "empty" to detach the current one');

type RuleOf<K extends FieldRule['kind']> = Extract<FieldRule, { kind: K }>;
type Options = readonly [string, ...string[]];
/** Add, or edit (the update request and the edit form): only a text's add format differs. */
type On = 'add' | 'edit';

function textRule(rule: RuleOf<'text'>, on: On) {
  const text = requiredText(rule.empty, limits.textMin, m.minTwo, rule.max);
  return on === 'add' && rule.onAdd ? text.regex(rule.onAdd.pattern, { error: rule.onAdd.message }) : text;
}

function optionalTextRule(rule: RuleOf<'optionalText'>) {
  const text = optionalText(rule.max, rule.min);
  const email = rule.email;
  return email === undefined
    ? text
    : text.refine((v) => v === null || z.email().safeParse(v).success, { error: email });
}

function choiceRule<const O extends Options>(rule: { options: O; empty: string; invalid: string }) {
  return z.preprocess(
    trimmed,
    z.enum(rule.options, {
      error: (issue) =>
        issue.input === undefined || issue.input === null || issue.input === '' ? rule.empty : rule.invalid,
    }),
  );
}

function optionalChoiceRule<const O extends Options>(rule: { options: O; invalid: string }) {
  return z.preprocess(
    (v) => (typeof v === 'string' ? emptyToNull(v.trim().toLowerCase()) : v),
    z
      .enum(rule.options, { error: rule.invalid })
      .nullish()
      .transform((v) => v ?? null),
  );
}

/** The schema a field's rule makes, by the rule's kind (and, for the device, add or edit). */
type RuleSchema<R, O extends On> = R extends { kind: 'text' }
  ? ReturnType<typeof textRule>
  : R extends { kind: 'optionalText' }
    ? ReturnType<typeof optionalTextRule>
    : R extends { kind: 'choice'; options: infer C extends Options }
      ? ReturnType<typeof choiceRule<C>>
      : R extends { kind: 'optionalChoice'; options: infer C extends Options }
        ? ReturnType<typeof optionalChoiceRule<C>>
        : R extends { kind: 'yesNo' }
          ? ReturnType<typeof formBoolean>
          : R extends { kind: 'dateOfBirth' }
            ? typeof dateOfBirth
            : R extends { kind: 'nhsNumber' }
              ? typeof nhsNumber
              : R extends { kind: 'device' }
                ? O extends 'add'
                  ? typeof deviceChoice
                  : typeof deviceOnUpdate
                : never;

function ruleSchema(rule: FieldRule, on: On): z.ZodType {
  switch (rule.kind) {
    case 'text':
      return textRule(rule, on);
    case 'optionalText':
      return optionalTextRule(rule);
    case 'choice':
      return choiceRule(rule);
    case 'optionalChoice':
      return optionalChoiceRule(rule);
    case 'yesNo':
      return formBoolean(rule.empty);
    case 'dateOfBirth':
      return dateOfBirth;
    case 'nhsNumber':
      return nhsNumber;
    case 'device':
      return on === 'add' ? deviceChoice : deviceOnUpdate;
  }
}

type Fields = typeof PARTICIPANT_FIELDS;
/** The fields a request takes: those with a rule. */
type RequestField = ParticipantFieldsWhere<{ rule: FieldRule }>;
type Shape<N extends RequestField, O extends On> = { [K in N]: RuleSchema<Fields[K]['rule'], O> };

/** The object shape of `names` (in that order, the order of their errors) under the add or edit rules. */
function shapeOf<N extends RequestField, O extends On>(names: readonly N[], on: O): Shape<N, O> {
  return Object.fromEntries(
    names.map((name) => [name, ruleSchema(participantField(name).rule!, on)]),
  ) as Shape<N, O>;
}

const REQUEST_FIELDS = participantFieldsWhere<RequestField>((field) => field.rule !== undefined);
const addShape = shapeOf(REQUEST_FIELDS, 'add');
const editShape = shapeOf(REQUEST_FIELDS, 'edit');

/** Referral data, edited through PATCH /api/participant/{id} (every field required when sent). */
export const referralBody = z
  .object(shapeOf(REFERRAL_FIELDS as readonly (ReferralField & RequestField)[], 'edit'))
  .meta({ id: 'ReferralEdit' });
export type ReferralBody = z.input<typeof referralBody>;

// ---- requests ----

/**
 * A participant and their referral, with the add rules of the field table. The server writes a
 * validated body's keys as the columns of the same names (the device, which names a device,
 * apart), so each key is a `participants` column; the server checks that when it starts.
 */
export const createParticipantBody = z
  .object({
    ...addShape,
    site_id: siteId
      .optional()
      .describe(
        "The participant's site, one of those the admin sees; required when the admin's organisation has more than one site",
      ),
  })
  .meta({
    id: 'CreateParticipant',
    description:
      'A new participant and their referral. push_notification_id is not taken: it starts as the literal "empty".',
  });
export type CreateParticipantBody = z.input<typeof createParticipantBody>;
export type CreateParticipantInput = z.output<typeof createParticipantBody>;

// ---- Bulk referrals ----

/** One row of a bulk-referral CSV: exactly the add form's rules and messages, less the device. */
export const participantImportRow = createParticipantBody.omit({ unique_device_id: true, site_id: true });
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
  site_id: siteFilter.site_id.describe(
    "The site the file's participants belong to; required when the admin's organisation has more than one site",
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
  .object({ ...editShape, purge_cache: formBoolean('purge_cache must be true or false') })
  .partial()
  .meta({
    id: 'UpdateParticipant',
    description:
      'Only the fields sent change. Identifiable and referral fields need full access. The tablet (bearer token) may send purge_cache only.',
  });
export type UpdateParticipantBody = z.input<typeof updateParticipantBody>;
export type UpdateParticipantInput = z.output<typeof updateParticipantBody>;

type DialogField = ParticipantFieldsWhere<{ rule: FieldRule; editable: { dialog: true } }>;
type BlankOnEdit = ParticipantFieldsWhere<{ rule: { optionalOnEdit: true } }>;
const blankAllowed = <T extends z.core.SomeType>(schema: T) =>
  z.preprocess(trimmed, z.union([schema, z.literal('')]));

/**
 * The console's edit-participant form: the fields of the edit dialog with the PATCH rules, every
 * one present; a choice required on add only (optionalOnEdit) may be left blank.
 */
export const editParticipantForm = z.object({
  ...(Object.fromEntries(
    participantFieldsWhere<DialogField>(
      (field) => field.rule !== undefined && field.editable?.dialog === true,
    ).map((name) => [name, editShape[name]]),
  ) as Pick<typeof editShape, DialogField>),
  ...(Object.fromEntries(
    participantFieldsWhere<BlankOnEdit>(
      (field) => field.rule?.kind === 'choice' && field.rule.optionalOnEdit === true,
    ).map((name) => [name, blankAllowed(editShape[name])]),
  ) as unknown as { [K in BlankOnEdit]: ReturnType<typeof blankAllowed<(typeof editShape)[K]>> }),
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
  ...siteFilter,
});
export type ParticipantListQuery = z.output<typeof participantListQuery>;

/** The whole list as the grid shows it (filter, search, sort), without paging: streamed as CSV. */
export const participantExportQuery = participantListQuery.pick({
  state: true,
  status: true,
  sort: true,
  order: true,
  q: true,
  site_id: true,
});
export type ParticipantExportQuery = z.output<typeof participantExportQuery>;

/**
 * A full-access admin's CSV: the grid's columns (the field table's grid columns among them, in
 * the grid's order), contact data included.
 */
export const PARTICIPANT_CSV_FULL_COLUMNS = [
  'participant_id',
  ...PARTICIPANT_GRID_FIELDS,
  'name',
  'unique_device_id',
  'days_behind',
  'tracking',
  // Follow-up: the last contact attempt (its note stays out: identifiable free text).
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

type Answer = { type: 'string' | 'boolean' | 'choice'; nullable: boolean; description?: string };
type Nullable<T extends z.ZodType, A> = A extends { nullable: true } ? z.ZodNullable<T> : T;
/** The JSON type of a field in an answer, from its entry's `answer` (a choice: its rule's options). */
type AnswerSchema<F> = F extends { answer: infer A extends Answer }
  ? A extends { type: 'boolean' }
    ? Nullable<z.ZodBoolean, A>
    : A extends { type: 'choice' }
      ? F extends { rule: { options: infer C extends Options } }
        ? Nullable<z.ZodEnum<{ [K in C[number]]: K }>, A>
        : never
      : Nullable<z.ZodString, A>
  : never;

function answerSchema(name: ParticipantFieldName): z.ZodType {
  const spec = participantField(name);
  const answer = spec.answer!;
  const rule = spec.rule;
  const base =
    answer.type === 'boolean'
      ? z.boolean()
      : answer.type === 'choice' && (rule?.kind === 'choice' || rule?.kind === 'optionalChoice')
        ? z.enum(rule.options)
        : z.string();
  const typed = answer.nullable ? base.nullable() : base;
  return answer.description === undefined ? typed : typed.describe(answer.description);
}

/** The answer shape of `names`, in that order. */
function answerShape<N extends ParticipantFieldName>(
  names: readonly N[],
): { [K in N]: AnswerSchema<Fields[K]> } {
  return Object.fromEntries(names.map((name) => [name, answerSchema(name)])) as {
    [K in N]: AnswerSchema<Fields[K]>;
  };
}

/**
 * A participant with contact data, for full-access admins only. The basic-access shape below is
 * this one less CONTACT_FIELDS, so a field declared identifiable can never reach basic access.
 */
export const participantFull = z
  .object({
    participant_id: z.number().int(),
    site_id: z.number().int().describe("The participant's site"),
    ...answerShape(OPEN_FIELDS),
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
    ...answerShape(CONTACT_FIELDS),
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

/** Possible duplicates: never a refusal, said with the saved participant. */
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
  .object({ participant_id: z.number().int(), ...answerShape(REFERRAL_FIELDS) })
  .meta({ id: 'Referral', description: 'Referral data of a participant (full access)' });
export type Referral = z.infer<typeof referral>;

export const participantPage = z
  .object({ data: z.array(participantView), pagination })
  .meta({ id: 'ParticipantPage' });
export type ParticipantPage = { data: ParticipantView[]; pagination: z.infer<typeof pagination> };
