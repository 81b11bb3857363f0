import { z } from 'zod';
import { isIsoDate } from './common.js';
import { messages } from './messages.js';
import { siteFilter } from './organisations.js';
import {
  AMEND_REASON_MAX,
  ASSESSMENT_NOTE_MAX,
  ITEM_ID_PATTERN,
  LOINC_PATTERN,
  MEASURE_CODE_PATTERN,
  MEASURE_DECIMALS_MAX,
  MEASURE_KINDS,
  MEASURE_UNITS,
  QUESTIONNAIRE_UNIT,
  SCORING_RULES,
  TIMEPOINTS,
  hasAtMostDecimals,
  questionnaireRange,
  type MeasureItem,
  type MeasureKind,
  type ScoringRule,
} from './outcome-names.js';
import { isCalendarDay, latestReportEnd } from './report-names.js';

export * from './outcome-names.js';

const m = messages.outcomes;

const NAME_MAX = 200;
const LONG_TEXT_MAX = 2000;
const ITEMS_MAX = 100;
const ANSWERS_MAX = 20;
/** Values beyond this are not a measurement of a person. */
const VALUE_LIMIT = 1e9;

// ---- the catalogue of measures ----

const finite = (field: string) =>
  z
    .number({ error: m.numberInvalid(field) })
    .refine((v) => Number.isFinite(v) && Math.abs(v) <= VALUE_LIMIT, { error: m.numberInvalid(field) });

const measureCode = z
  .string({ error: m.codeInvalid })
  .trim()
  .regex(MEASURE_CODE_PATTERN, { error: m.codeInvalid })
  .describe('Short and unique (case does not matter): 6MWD, GAD-7');

/** Free text that may be left out: absent, null or blank mean none. */
const longText = (field: string, max: number) =>
  z
    .string({ error: m.textTooLong(field, max) })
    .trim()
    .max(max, { error: m.textTooLong(field, max) });

const measureAnswer = z.object({
  value: finite("An answer's value"),
  label: z
    .string({ error: m.answerLabelEmpty })
    .trim()
    .min(1, { error: m.answerLabelEmpty })
    .max(NAME_MAX, { error: m.textTooLong('A label', NAME_MAX) }),
});

const measureItem = z.object({
  item_id: z
    .string({ error: m.itemIdInvalid })
    .trim()
    .regex(ITEM_ID_PATTERN, { error: m.itemIdInvalid })
    .describe('The key of its answer in a recorded result'),
  text: z
    .string({ error: m.itemTextEmpty })
    .trim()
    .min(1, { error: m.itemTextEmpty })
    .max(500, { error: m.textTooLong("An item's text", 500) }),
  reversed: z
    .boolean({ error: 'reversed must be true or false' })
    .optional()
    .describe("Counts the lowest answer as the highest (value' = lowest + highest - value)"),
  answers: z
    .array(measureAnswer, { error: m.answersTooFew })
    .min(2, { error: m.answersTooFew })
    .max(ANSWERS_MAX, { error: m.tooManyAnswers }),
});

/** Every field a measure is made of, as stored. */
export interface MeasureDefinition {
  code: string;
  name: string;
  kind: MeasureKind;
  unit: string;
  min: number;
  max: number;
  decimals: number;
  higher_is_better: boolean;
  mcid: number | null;
  mcid_source: string | null;
  instructions: string | null;
  licence: string | null;
  loinc: string | null;
  scoring: ScoringRule | null;
  items: MeasureItem[] | null;
}

export interface Problem {
  path: string[];
  message: string;
}

/**
 * What is wrong with a whole measure (empty when nothing): the rules that tie its fields together,
 * checked on creation and again on a change of a measure that has no results yet.
 */
export function measureProblems(d: MeasureDefinition): Problem[] {
  const problems: Problem[] = [];
  const add = (path: string, message: string) => problems.push({ path: [path], message });
  if (d.min > d.max) add('max', m.rangeInvalid);
  if (!hasAtMostDecimals(d.min, d.decimals) || !hasAtMostDecimals(d.max, d.decimals))
    add('min', m.boundDecimals);
  if (d.mcid !== null && (d.mcid <= 0 || d.mcid > d.max - d.min)) add('mcid', m.mcidInvalid);
  if (d.kind === 'numeric') {
    if (d.unit === '') add('unit', m.unitRequired);
    else if (!(d.unit in MEASURE_UNITS) || d.unit === QUESTIONNAIRE_UNIT) add('unit', m.unitInvalid);
    if (d.scoring !== null || d.items !== null) add('items', m.numericHasItems);
    return problems;
  }
  if (d.unit !== QUESTIONNAIRE_UNIT) add('unit', m.unitOfQuestionnaire);
  if (d.scoring === null) add('scoring', m.scoringRequired);
  if (d.items === null || d.items.length === 0) {
    add('items', m.itemsRequired);
    return problems;
  }
  const ids = new Set<string>();
  for (const item of d.items) {
    if (ids.has(item.item_id)) add('items', m.itemIdRepeated(item.item_id));
    ids.add(item.item_id);
    const values = item.answers.map((a) => a.value);
    if (new Set(values).size !== values.length) add('items', m.answerValueRepeated(item.item_id));
    if (!values.every((v) => hasAtMostDecimals(v, d.decimals))) add('items', m.answerValueDecimals);
  }
  if (d.scoring !== null && problems.length === 0) {
    const range = questionnaireRange({ scoring: d.scoring, items: d.items, decimals: d.decimals });
    if (range.min !== d.min || range.max !== d.max) add('min', m.scoreRange(range.min, range.max));
  }
  return problems;
}

/** Each field's rule, before "may be left out" (create) or "may be sent" (change) is added. */
const fieldRules = {
  code: measureCode,
  name: z
    .string({ error: m.nameEmpty })
    .trim()
    .min(1, { error: m.nameEmpty })
    .max(NAME_MAX, { error: m.nameTooLong }),
  kind: z.enum(MEASURE_KINDS, { error: m.kindInvalid }),
  unit: z
    .string({ error: m.unitInvalid })
    .refine((u) => u in MEASURE_UNITS, { error: m.unitInvalid })
    .describe(`UCUM: ${Object.keys(MEASURE_UNITS).join(', ')}; a questionnaire's is {score} (the default)`),
  min: finite('min').describe("Smallest plausible value (a questionnaire: its score's lowest)"),
  max: finite('max').describe("Largest plausible value (a questionnaire: its score's highest)"),
  decimals: z
    .number({ error: m.decimalsInvalid })
    .int({ error: m.decimalsInvalid })
    .min(0, { error: m.decimalsInvalid })
    .max(MEASURE_DECIMALS_MAX, { error: m.decimalsInvalid }),
  higher_is_better: z.boolean({ error: m.higherIsBetterInvalid }),
  mcid: finite('mcid').describe('Minimal clinically important difference, in the unit (null: none known)'),
  mcid_source: longText("The MCID's source", 1000).describe('Where the MCID comes from'),
  instructions: longText('The instructions', LONG_TEXT_MAX).describe('How to take it'),
  licence: longText('The licence note', 1000),
  loinc: z
    .string({ error: m.loincInvalid })
    .trim()
    .regex(LOINC_PATTERN, { error: m.loincInvalid })
    .describe('LOINC code of the observation (a questionnaire: of the whole form), when one exists'),
  scoring: z.enum(SCORING_RULES, { error: m.scoringInvalid }),
  items: z.array(measureItem, { error: m.itemsRequired }).max(ITEMS_MAX, { error: m.tooManyItems }),
};

const orNull = <T extends z.ZodType>(rule: T) =>
  rule.nullish().transform((v) => (v === undefined || v === '' ? null : v) as z.output<T> | null);

/** `POST /api/measures` */
export const createMeasureBody = z
  .object({
    code: fieldRules.code,
    name: fieldRules.name,
    kind: fieldRules.kind,
    unit: fieldRules.unit.optional(),
    min: fieldRules.min,
    max: fieldRules.max,
    decimals: fieldRules.decimals.default(0),
    higher_is_better: fieldRules.higher_is_better,
    mcid: orNull(fieldRules.mcid),
    mcid_source: orNull(fieldRules.mcid_source),
    instructions: orNull(fieldRules.instructions),
    licence: orNull(fieldRules.licence),
    loinc: orNull(fieldRules.loinc),
    scoring: orNull(fieldRules.scoring),
    items: orNull(fieldRules.items),
  })
  .transform((body) => ({
    ...body,
    // A questionnaire's score is counted in points; a numeric measure must say its unit.
    unit: body.unit ?? (body.kind === 'questionnaire' ? QUESTIONNAIRE_UNIT : ''),
  }))
  .superRefine((d, ctx) => {
    for (const p of measureProblems(d)) ctx.addIssue({ code: 'custom', ...p });
  })
  .meta({ id: 'CreateMeasure' });
export type CreateMeasureBody = z.input<typeof createMeasureBody>;
export type CreateMeasureInput = z.output<typeof createMeasureBody>;

/**
 * `PATCH /api/measures/{id}`: any field of a measure without results (the whole is checked again);
 * once it has results, only `name` and `retired` (anything else is refused with 409).
 */
export const updateMeasureBody = z
  .object({
    code: fieldRules.code.optional(),
    name: fieldRules.name.optional(),
    kind: fieldRules.kind.optional(),
    unit: fieldRules.unit.optional(),
    min: fieldRules.min.optional(),
    max: fieldRules.max.optional(),
    decimals: fieldRules.decimals.optional(),
    higher_is_better: fieldRules.higher_is_better.optional(),
    mcid: fieldRules.mcid.nullable().optional(),
    mcid_source: fieldRules.mcid_source.nullable().optional(),
    instructions: fieldRules.instructions.nullable().optional(),
    licence: fieldRules.licence.nullable().optional(),
    loinc: fieldRules.loinc.nullable().optional(),
    scoring: fieldRules.scoring.nullable().optional(),
    items: fieldRules.items.nullable().optional(),
    retired: z.boolean({ error: 'retired must be true or false' }).optional(),
  })
  .meta({ id: 'UpdateMeasure' });
export type UpdateMeasureBody = z.input<typeof updateMeasureBody>;
export type UpdateMeasureInput = z.output<typeof updateMeasureBody>;
/** The fields a measure with results may still change. */
export const MEASURE_FIELDS_ALWAYS_EDITABLE = ['name', 'retired'] as const;

const answerSchema = z.object({ value: z.number(), label: z.string() });
export const measure = z
  .object({
    measure_id: z.number().int(),
    code: z.string(),
    name: z.string(),
    kind: z.enum(MEASURE_KINDS),
    unit: z.string().describe('UCUM code'),
    min: z.number(),
    max: z.number(),
    decimals: z.number().int(),
    higher_is_better: z.boolean(),
    mcid: z.number().nullable(),
    mcid_source: z.string().nullable(),
    instructions: z.string().nullable(),
    licence: z.string().nullable(),
    loinc: z.string().nullable(),
    retired: z.boolean(),
    has_results: z.boolean().describe('True once a result is recorded: only name and retired can change'),
    scoring: z.enum(SCORING_RULES).optional(),
    items: z
      .array(
        z.object({
          item_id: z.string(),
          text: z.string(),
          reversed: z.boolean().optional(),
          answers: z.array(answerSchema),
        }),
      )
      .optional(),
  })
  .meta({ id: 'Measure' });
export type Measure = z.infer<typeof measure>;

export const measureIdParams = z.object({
  id: z.coerce
    .number({ error: 'The measure id must be a whole number' })
    .int({ error: 'The measure id must be a whole number' })
    .positive({ error: 'The measure id must be a whole number' })
    .max(2147483647, { error: 'The measure id is out of range' }),
});

// ---- the schedule of a video set ----

const timepoint = z.enum(TIMEPOINTS, { error: m.timepointInvalid });
const week = z
  .number({ error: m.weekInvalid })
  .int({ error: m.weekInvalid })
  .min(1, { error: m.weekInvalid })
  .max(520, { error: m.weekInvalid });

const scheduledTimepoint = z.object({
  timepoint,
  week: week.optional().describe('The programme week of an interim assessment (interim only)'),
  measures: z
    .array(measureCode, { error: m.measuresEmpty })
    .min(1, { error: m.measuresEmpty })
    .max(50, { error: m.measuresEmpty })
    .describe('Codes of the measures to take'),
});

/** `GET`/`PUT /api/videoset/{id}/assessments` */
export const assessmentSchedule = z
  .object({
    timepoints: z
      .array(scheduledTimepoint, { error: m.timepointInvalid })
      .max(60, { error: m.tooManyTimepoints }),
  })
  .superRefine((schedule, ctx) => {
    const seen = new Set<string>();
    schedule.timepoints.forEach((t, i) => {
      if (t.timepoint === 'interim' && t.week === undefined)
        ctx.addIssue({ code: 'custom', path: ['timepoints', i, 'week'], message: m.weekRequired });
      if (t.timepoint !== 'interim' && t.week !== undefined)
        ctx.addIssue({ code: 'custom', path: ['timepoints', i, 'week'], message: m.weekNotAllowed });
      const key = `${t.timepoint}:${t.week ?? ''}`;
      if (seen.has(key))
        ctx.addIssue({ code: 'custom', path: ['timepoints', i], message: m.timepointRepeated });
      seen.add(key);
      const codes = new Set<string>();
      for (const code of t.measures) {
        if (codes.has(code.toLowerCase()))
          ctx.addIssue({
            code: 'custom',
            path: ['timepoints', i, 'measures'],
            message: m.measureRepeated(code),
          });
        codes.add(code.toLowerCase());
      }
    });
  })
  .meta({ id: 'AssessmentSchedule' });
export type AssessmentSchedule = z.infer<typeof assessmentSchedule>;
export type ScheduledTimepoint = AssessmentSchedule['timepoints'][number];

// ---- results ----

const takenOn = z
  .string({ error: m.dateInvalid })
  .refine(isIsoDate, { error: m.dateInvalid })
  .describe('YYYY-MM-DD: not in the future, not before registration');
const note = z
  .string({ error: m.noteTooLong })
  .trim()
  .max(ASSESSMENT_NOTE_MAX, { error: m.noteTooLong })
  .optional()
  .transform((v) => (v === '' ? undefined : v));
const value = finite('value').describe("A numeric measure's value, in its unit");
const answers = z
  .record(z.string(), finite('An answer'), { error: m.answersRequired })
  .describe("A questionnaire's answers: the value of an allowed answer for every item, by item_id");

/** `POST /api/participant/{id}/assessments` */
export const recordAssessmentBody = z
  .object({
    timepoint,
    week: week.optional().describe('The programme week, for an interim assessment only'),
    measure: measureCode,
    taken_on: takenOn,
    value: value.optional(),
    answers: answers.optional(),
    note: note.describe('Identifiable free text: only full access reads it'),
  })
  .superRefine((b, ctx) => {
    if (b.timepoint === 'interim' && b.week === undefined)
      ctx.addIssue({ code: 'custom', path: ['week'], message: m.weekRequired });
    if (b.timepoint !== 'interim' && b.week !== undefined)
      ctx.addIssue({ code: 'custom', path: ['week'], message: m.weekNotAllowed });
  })
  .meta({ id: 'RecordAssessment' });
export type RecordAssessmentBody = z.input<typeof recordAssessmentBody>;
export type RecordAssessmentInput = z.output<typeof recordAssessmentBody>;

/** `POST /api/participant/{id}/assessments/{assessment_id}/amend` */
export const amendAssessmentBody = z
  .object({
    value: value.optional(),
    answers: answers.optional(),
    entered_in_error: z
      .literal(true, { error: m.amendOneOf })
      .optional()
      .describe(
        'The result should never have been recorded (another participant, another measure): reports leave it out',
      ),
    reason: z
      .string({ error: m.reasonRequired })
      .trim()
      .min(1, { error: m.reasonRequired })
      .max(AMEND_REASON_MAX, { error: m.reasonTooLong })
      .describe('Why: identifiable free text, only full access reads it'),
  })
  .superRefine((b, ctx) => {
    const given = [b.value !== undefined, b.answers !== undefined, b.entered_in_error === true];
    if (given.filter(Boolean).length !== 1)
      ctx.addIssue({ code: 'custom', path: ['value'], message: m.amendOneOf });
  })
  .meta({ id: 'AmendAssessment' });
export type AmendAssessmentBody = z.input<typeof amendAssessmentBody>;
export type AmendAssessmentInput = z.output<typeof amendAssessmentBody>;

export const assessmentParams = z.object({
  id: z.coerce
    .number({ error: 'The participant id must be a whole number' })
    .int({ error: 'The participant id must be a whole number' })
    .positive({ error: 'The participant id must be a whole number' })
    .max(2147483647, { error: 'The participant id is out of range' }),
  assessment_id: z.coerce
    .number({ error: 'The result id must be a whole number' })
    .int({ error: 'The result id must be a whole number' })
    .positive({ error: 'The result id must be a whole number' })
    .max(Number.MAX_SAFE_INTEGER, { error: 'The result id is out of range' }),
});

/** A result as recorded (or an amendment of one); `note` and `reason` only for full access. */
export const assessmentEntry = z
  .object({
    assessment_id: z.number().int(),
    participant_id: z.number().int(),
    measure_id: z.number().int(),
    measure: z.string().describe("The measure's code"),
    timepoint: z.enum(TIMEPOINTS),
    week: z.number().int().nullable(),
    taken_on: z.string(),
    value: z
      .number()
      .nullable()
      .describe("A numeric measure's value (null for a questionnaire or an entry in error)"),
    answers: z.record(z.string(), z.number()).nullable(),
    score: z
      .number()
      .nullable()
      .describe(
        'The value of a numeric measure, or the computed score of a questionnaire; null when entered in error',
      ),
    unit: z.string(),
    entered_in_error: z.boolean(),
    amends: z
      .number()
      .int()
      .nullable()
      .describe('On an amendment: the result it corrects (the first recorded)'),
    superseded: z.boolean().describe('A later amendment replaces this one: reports use the newest'),
    reason: z.string().nullable().optional().describe("An amendment's reason (full access only)"),
    note: z.string().nullable().optional().describe('Full access only'),
    has_note: z.boolean(),
    admin_user_name: z.string(),
    created_at: z.string(),
  })
  .meta({ id: 'AssessmentEntry' });
export type AssessmentEntry = z.infer<typeof assessmentEntry>;

/** What is due for one participant, and each current result against their baseline. */
export const participantOutcomes = z
  .object({
    programme: z
      .object({
        video_set_id: z.number().int(),
        set_name: z.string(),
        started_date: z.string(),
        number_of_weeks: z.number().int(),
      })
      .nullable(),
    due: z
      .array(
        z.object({
          timepoint: z.enum(TIMEPOINTS),
          week: z.number().int().nullable(),
          measure: z.string(),
          due_from: z.string().describe('YYYY-MM-DD, the first day it is due'),
          due_until: z.string().nullable().describe('YYYY-MM-DD, the last day it is due'),
          state: z
            .enum(['upcoming', 'due', 'recorded', 'missed'])
            .describe('missed: the window closed without a result'),
        }),
      )
      .describe("The schedule of the participant's video set, timepoint by timepoint"),
    results: z
      .array(
        z.object({
          assessment_id: z.number().int(),
          measure: z.string(),
          timepoint: z.enum(TIMEPOINTS),
          week: z.number().int().nullable(),
          taken_on: z.string(),
          score: z.number(),
          amended: z.boolean(),
          baseline: z
            .number()
            .nullable()
            .describe(
              'The baseline this is compared with: the newest taken by the end of the first programme week',
            ),
          change: z.number().nullable(),
          mcid_class: z.enum(['improved', 'unchanged', 'worse']).nullable(),
          late_baseline: z
            .boolean()
            .describe('A baseline taken after the first programme week ended: not used for change'),
        }),
      )
      .describe(
        'The current value of every result (amendments applied, entries in error left out), newest first',
      ),
  })
  .meta({ id: 'ParticipantOutcomes' });
export type ParticipantOutcomes = z.infer<typeof participantOutcomes>;
export type DueState = ParticipantOutcomes['due'][number]['state'];

// ---- the outcomes report ----

const reportDay = (field: 'from' | 'to') =>
  z
    .string({ error: messages.reports.badDate(field) })
    .refine(isCalendarDay, { error: messages.reports.badDate(field) })
    .describe('YYYY-MM-DD, a day in ADHERENCE_CHECK_TZ (inclusive)');

/** `GET /api/reports/outcomes` */
export const outcomesReportQuery = z
  .object({
    from: reportDay('from'),
    to: reportDay('to'),
    measure: z
      .string({ error: messages.reports.measureRequired })
      .trim()
      .min(1, { error: messages.reports.measureRequired })
      .max(30, { error: messages.outcomes.codeInvalid })
      .describe("The measure's code"),
    ...siteFilter,
  })
  .superRefine((p, ctx) => {
    if (!isCalendarDay(p.from) || !isCalendarDay(p.to)) return;
    if (p.from > p.to) ctx.addIssue({ code: 'custom', path: ['to'], message: messages.reports.fromAfterTo });
    else if (p.to > latestReportEnd(p.from))
      ctx.addIssue({ code: 'custom', path: ['to'], message: messages.reports.tooLong });
  });
export type OutcomesReportQuery = z.infer<typeof outcomesReportQuery>;

const quartiles = z
  .object({ median: z.number().nullable(), q1: z.number().nullable(), q3: z.number().nullable() })
  .describe('Of the participants with both results (interpolated percentiles); null when none');

export const outcomesReport = z
  .object({
    report: z.literal('outcomes'),
    period: z.object({ from: z.string(), to: z.string() }),
    measure: z.string().describe("The measure's code"),
    measure_name: z.string(),
    unit: z.string(),
    mcid: z.number().nullable(),
    higher_is_better: z.boolean(),
    completed: z.number().int().describe('Participants discharged as completed in the period'),
    with_baseline: z
      .number()
      .int()
      .describe("Of them, with a baseline taken by the end of the programme's first week"),
    baseline_late: z
      .number()
      .int()
      .describe('Of them, with a baseline only from after the first week ended: not used as a baseline'),
    with_end: z.number().int().describe('Of them, with an end result'),
    with_both: z.number().int().describe('Of them, with both: the pairs every figure below is of'),
    baseline: quartiles,
    end: quartiles,
    median_change: z.number().nullable().describe('Median of end minus baseline, in the unit'),
    improved: z.number().int().nullable().describe('Pairs better by at least the MCID (null: no MCID)'),
    unchanged: z.number().int().nullable().describe('Pairs within the MCID'),
    worse: z.number().int().nullable().describe('Pairs worse by at least the MCID'),
  })
  .meta({ id: 'OutcomesReport' });
export type OutcomesReport = z.infer<typeof outcomesReport>;
