import {
  can,
  type AssessmentEntry,
  type Measure,
  type MeasureDefinition,
  type Role,
  type Timepoint,
} from '@pathway/contract';
import type { assessmentResults, outcomeMeasures } from '../../db/schema.js';

export type MeasureRow = typeof outcomeMeasures.$inferSelect;
export type ResultRow = typeof assessmentResults.$inferSelect;

/** A measure's definition as stored, for the rules that read it whole (and the answer's fields). */
export function measureDefinition(row: MeasureRow): MeasureDefinition {
  return {
    code: row.code,
    name: row.name,
    kind: row.kind as MeasureDefinition['kind'],
    unit: row.unit,
    min: row.min,
    max: row.max,
    decimals: row.decimals,
    higher_is_better: row.higher_is_better,
    mcid: row.mcid,
    mcid_source: row.mcid_source,
    instructions: row.instructions,
    licence: row.licence,
    loinc: row.loinc,
    scoring: row.scoring as MeasureDefinition['scoring'],
    items: row.items,
  };
}

export function presentMeasure(row: MeasureRow, hasResults: boolean): Measure {
  const { scoring, items, ...definition } = measureDefinition(row);
  return {
    measure_id: row.measure_id,
    ...definition,
    retired: row.retired,
    has_results: hasResults,
    // A numeric measure has no scoring or items in its answer (not even null).
    ...(row.kind === 'questionnaire' && { scoring: scoring!, items: items ?? [] }),
  };
}

/**
 * A result as a role may see it: values and scores are not identifiable, so both roles read them;
 * the note and an amendment's reason are free text that may name someone, so only full access
 * reads them (basic access sees that a note exists), as for contact notes.
 */
export function presentResult(
  row: ResultRow,
  measure: Pick<MeasureRow, 'code' | 'unit'>,
  superseded: boolean,
  role: Role,
): AssessmentEntry {
  const identifiable = can(role, 'participants.identifiable');
  return {
    assessment_id: row.assessment_id,
    participant_id: row.participant_id,
    measure_id: row.measure_id,
    measure: measure.code,
    timepoint: row.timepoint as Timepoint,
    week: row.week,
    taken_on: row.taken_on,
    value: row.value,
    answers: row.answers,
    score: row.score,
    unit: measure.unit,
    entered_in_error: row.entered_in_error,
    amends: row.amends,
    superseded,
    ...(identifiable && { note: row.note, reason: row.reason }),
    has_note: row.note !== null,
    admin_user_name: row.admin_user_name,
    created_at: row.created_at.toISOString(),
  };
}
