// Without zod, like report-names.ts: the console's Outcomes tab and catalogue read these names and
// the pure rules below (scoring, ranges, decimals) before any schema is loaded, and the server
// scores with the same functions, so a questionnaire is scored one way everywhere.

/** A numeric measure records one value; a questionnaire records answers and is scored. */
export const MEASURE_KINDS = ['numeric', 'questionnaire'] as const;
export type MeasureKind = (typeof MEASURE_KINDS)[number];

/** How a questionnaire's item values make its score. */
export const SCORING_RULES = ['sum', 'mean'] as const;
export type ScoringRule = (typeof SCORING_RULES)[number];

/** When a result was taken, in the programme: before it, at a week of it, or at its end. */
export const TIMEPOINTS = ['baseline', 'interim', 'end'] as const;
export type Timepoint = (typeof TIMEPOINTS)[number];

export const TIMEPOINT_LABELS: Record<Timepoint, string> = {
  baseline: 'Baseline',
  interim: 'Interim',
  end: 'End of programme',
};

/**
 * The units a numeric measure may record in, as UCUM codes (the FHIR export writes them as they
 * are) with the words the console shows beside every value, so a distance is never typed in feet
 * or a time where metres are asked for. A questionnaire's score is `{score}`.
 */
export const MEASURE_UNITS = {
  m: 'metres',
  km: 'kilometres',
  cm: 'centimetres',
  s: 'seconds',
  min: 'minutes',
  kg: 'kilograms',
  'kg/m2': 'kg/m²',
  '%': 'per cent',
  'mm[Hg]': 'mmHg',
  '/min': 'per minute',
  'm/s': 'metres per second',
  '{score}': 'points',
} as const;
export type MeasureUnit = keyof typeof MEASURE_UNITS;
export const QUESTIONNAIRE_UNIT: MeasureUnit = '{score}';

/** Longest note on a result (identifiable free text, as a contact note). */
export const ASSESSMENT_NOTE_MAX = 2000;
/** Longest reason of an amendment. */
export const AMEND_REASON_MAX = 500;
/** The most decimal places a measure may record. */
export const MEASURE_DECIMALS_MAX = 4;
/** The end assessment stays due this many days after the programme's last week (or a discharge as completed). */
export const END_ASSESSMENT_GRACE_DAYS = 28;
/** Results of a discharged participant may be recorded and amended for this many days after the discharge. */
export const RECORDING_AFTER_DISCHARGE_DAYS = 28;

export const MEASURE_CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,29}$/;
export const ITEM_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$/;
export const LOINC_PATTERN = /^\d{1,7}-\d$/;

export interface MeasureAnswer {
  value: number;
  label: string;
}
export interface MeasureItem {
  item_id: string;
  text: string;
  reversed?: boolean;
  answers: MeasureAnswer[];
}

/** The parts of a measure its scoring reads. */
export interface ScoredQuestionnaire {
  scoring: ScoringRule;
  items: MeasureItem[];
  decimals: number;
}

/** Rounds half away from zero to `decimals` places (a score of 2.25 with one decimal is 2.3). */
export function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  const scaled = Math.abs(value) * factor;
  // The epsilon keeps 1.005 * 100 = 100.49999... from rounding down.
  const rounded = Math.round(scaled + 1e-9) / factor;
  return value < 0 ? -rounded : rounded;
}

/** Whether a number has at most `decimals` decimal places as written (412.5 has 1). */
export function hasAtMostDecimals(value: number, decimals: number): boolean {
  return Number.isFinite(value) && Number(value.toFixed(decimals)) === value;
}

function itemRange(item: MeasureItem): { low: number; high: number } {
  const values = item.answers.map((a) => a.value);
  return { low: Math.min(...values), high: Math.max(...values) };
}

/**
 * An item's value as it counts in the score: a reversed item counts its lowest answer as its
 * highest and the other way round (value' = low + high - value).
 */
export function itemScore(item: MeasureItem, value: number): number {
  if (!item.reversed) return value;
  const { low, high } = itemRange(item);
  return low + high - value;
}

/** The score of complete, allowed answers: the sum or mean of the items' values, rounded to the measure's decimals. */
export function scoreAnswers(q: ScoredQuestionnaire, answers: Record<string, number>): number {
  const values = q.items.map((item) => itemScore(item, answers[item.item_id]!));
  const sum = values.reduce((a, b) => a + b, 0);
  return roundTo(q.scoring === 'sum' ? sum : sum / values.length, q.decimals);
}

/** The lowest and highest score a questionnaire's items can give. */
export function questionnaireRange(q: ScoredQuestionnaire): { min: number; max: number } {
  const ranges = q.items.map(itemRange);
  const low = ranges.reduce((a, r) => a + r.low, 0);
  const high = ranges.reduce((a, r) => a + r.high, 0);
  const n = q.scoring === 'sum' ? 1 : q.items.length;
  return { min: roundTo(low / n, q.decimals), max: roundTo(high / n, q.decimals) };
}

/**
 * Whether a change from the baseline passes the MCID: `improved` when it moved in the better
 * direction by at least the MCID, `worse` when it moved the other way by at least the MCID,
 * `unchanged` within it; null without an MCID.
 */
export function mcidClass(
  change: number,
  measure: { mcid: number | null; higher_is_better: boolean },
): 'improved' | 'unchanged' | 'worse' | null {
  if (measure.mcid === null) return null;
  const better = measure.higher_is_better ? change : -change;
  // A change equal to the MCID counts: compared after rounding away binary noise (20.000000001).
  const step = roundTo(better, 9);
  if (step >= measure.mcid) return 'improved';
  if (step <= -measure.mcid) return 'worse';
  return 'unchanged';
}

export const MCID_CLASS_LABELS = {
  improved: 'Improved by at least the MCID',
  unchanged: 'Within the MCID',
  worse: 'Worse by at least the MCID',
} as const;

/** A measure's unit as words for the console: "metres", "points". */
export function unitLabel(unit: string): string {
  return (MEASURE_UNITS as Record<string, string>)[unit] ?? unit;
}
