import {
  END_ASSESSMENT_GRACE_DAYS,
  addDays,
  mcidClass,
  roundTo,
  type DueState,
  type ParticipantOutcomes,
  type ScheduledTimepoint,
  type Timepoint,
} from '@pathway/contract';

/**
 * When each scheduled assessment is due, and which result counts as a participant's baseline or
 * end: the one definition the Outcomes tab, the worklist's assessment_due and the outcomes report
 * follow (the report's SQL is checked against a reference of the same rules). Days are calendar
 * days of the programme's time zone; S is the programme's started_date, W its number of weeks.
 *
 * - baseline: due from registration until the last day of the first week (S + 6); a baseline taken
 *   later is "late" and is never used as one (an improvement measured from a baseline taken after
 *   the programme began would overstate it).
 * - interim at week k: due from the first day of week k until 4 weeks after its last day.
 * - end: due from the first day of the last week until 4 weeks after the last day; a participant
 *   discharged as completed is due it from the discharge (if earlier) until 4 weeks after it. An
 *   end result counts when taken on or after S.
 * - a discharge (either outcome) ends the baseline and interim windows on its day, and a
 *   withdrawal the end's too.
 */
export interface ParticipantFacts {
  registered_on: string;
  status: 'active' | 'completed' | 'withdrawn';
  discharged_on: string | null;
  programme: { started_date: string; number_of_weeks: number } | null;
}

/** A result's current state: the newest row of its chain (amendments applied). */
export interface CurrentResult {
  /** The first row of the chain (the result as first recorded). */
  root: number;
  /** The newest row: the value every figure uses. */
  assessment_id: number;
  measure_id: number;
  timepoint: Timepoint;
  week: number | null;
  taken_on: string;
  score: number | null;
  entered_in_error: boolean;
  amended: boolean;
}

export interface Window {
  from: string;
  until: string;
}

/** The days an assessment is due (null without a programme: nothing is scheduled without a set). */
export function windowOf(
  t: { timepoint: Timepoint; week: number | null },
  p: ParticipantFacts,
): Window | null {
  if (!p.programme) return null;
  const start = p.programme.started_date;
  const weeks = p.programme.number_of_weeks;
  let w: Window;
  if (t.timepoint === 'baseline') w = { from: p.registered_on, until: addDays(start, 6) };
  else if (t.timepoint === 'interim') {
    const k = t.week ?? 1;
    w = { from: addDays(start, 7 * (k - 1)), until: addDays(start, 7 * k - 1 + END_ASSESSMENT_GRACE_DAYS) };
  } else {
    w = {
      from: addDays(start, 7 * (weeks - 1)),
      until: addDays(start, 7 * weeks - 1 + END_ASSESSMENT_GRACE_DAYS),
    };
    if (p.status === 'completed' && p.discharged_on) {
      return {
        from: p.discharged_on < w.from ? p.discharged_on : w.from,
        until: addDays(p.discharged_on, END_ASSESSMENT_GRACE_DAYS),
      };
    }
  }
  if (p.discharged_on && p.discharged_on < w.until) w = { ...w, until: p.discharged_on };
  return w;
}

/** The last day a baseline may be taken to count as one (null: no programme, so any). */
export function baselineDeadline(p: ParticipantFacts): string | null {
  return p.programme ? addDays(p.programme.started_date, 6) : null;
}

/** Newest first among candidates: the later day taken, then the later recorded. */
function newest(results: CurrentResult[]): CurrentResult | null {
  let best: CurrentResult | null = null;
  for (const r of results) {
    if (!best || r.taken_on > best.taken_on || (r.taken_on === best.taken_on && r.root > best.root)) best = r;
  }
  return best;
}

const usable = (r: CurrentResult) => !r.entered_in_error && r.score !== null;

/** The baseline a measure's results are compared with: the newest taken by the end of the first week. */
export function baselineOf(
  measureId: number,
  current: CurrentResult[],
  p: ParticipantFacts,
): CurrentResult | null {
  const deadline = baselineDeadline(p);
  return newest(
    current.filter(
      (r) =>
        usable(r) &&
        r.measure_id === measureId &&
        r.timepoint === 'baseline' &&
        (deadline === null || r.taken_on <= deadline),
    ),
  );
}

/** The end result of a measure: the newest taken on or after the programme started. */
export function endOf(
  measureId: number,
  current: CurrentResult[],
  p: ParticipantFacts,
): CurrentResult | null {
  const start = p.programme?.started_date ?? null;
  return newest(
    current.filter(
      (r) =>
        usable(r) &&
        r.measure_id === measureId &&
        r.timepoint === 'end' &&
        (start === null || r.taken_on >= start),
    ),
  );
}

/** Whether the scheduled assessment has its result. */
function isRecorded(
  t: { timepoint: Timepoint; week: number | null },
  measureId: number,
  current: CurrentResult[],
  p: ParticipantFacts,
): boolean {
  if (t.timepoint === 'baseline') return baselineOf(measureId, current, p) !== null;
  if (t.timepoint === 'end') return endOf(measureId, current, p) !== null;
  return current.some(
    (r) => usable(r) && r.measure_id === measureId && r.timepoint === 'interim' && r.week === t.week,
  );
}

export function dueState(window: Window, recorded: boolean, today: string): DueState {
  if (recorded) return 'recorded';
  if (today < window.from) return 'upcoming';
  return today <= window.until ? 'due' : 'missed';
}

/** Folds a participant's rows (results and amendments) into each result's current state. */
export function currentResults(
  rows: {
    assessment_id: number;
    amends: number | null;
    measure_id: number;
    timepoint: string;
    week: number | null;
    taken_on: string;
    score: number | null;
    entered_in_error: boolean;
  }[],
): CurrentResult[] {
  const byRoot = new Map<number, CurrentResult>();
  for (const row of [...rows].sort((a, b) => a.assessment_id - b.assessment_id)) {
    const root = row.amends ?? row.assessment_id;
    byRoot.set(root, {
      root,
      assessment_id: row.assessment_id,
      measure_id: row.measure_id,
      timepoint: row.timepoint as Timepoint,
      week: row.week,
      taken_on: row.taken_on,
      score: row.score,
      entered_in_error: row.entered_in_error,
      amended: row.amends !== null,
    });
  }
  return [...byRoot.values()];
}

/** The Outcomes tab: each scheduled assessment's state, and each current result against its baseline. */
export interface MeasureFacts {
  measure_id: number;
  code: string;
  mcid: number | null;
  higher_is_better: boolean;
  decimals: number;
  /** A retired measure cannot be recorded, so it is never due. */
  retired: boolean;
}

export function outcomesOf(
  schedule: ScheduledTimepoint[],
  measures: MeasureFacts[],
  current: CurrentResult[],
  p: ParticipantFacts,
  today: string,
): Pick<ParticipantOutcomes, 'due' | 'results'> {
  const measureIds = new Map(measures.map((m) => [m.code.toLowerCase(), m]));
  const byMeasure = new Map(measures.map((m) => [m.measure_id, m]));
  const due: ParticipantOutcomes['due'] = [];
  for (const t of schedule) {
    const window = windowOf({ timepoint: t.timepoint, week: t.week ?? null }, p);
    if (!window) continue;
    for (const code of t.measures) {
      const measure = measureIds.get(code.toLowerCase());
      if (!measure || measure.retired) continue;
      const recorded = isRecorded(
        { timepoint: t.timepoint, week: t.week ?? null },
        measure.measure_id,
        current,
        p,
      );
      due.push({
        timepoint: t.timepoint,
        week: t.week ?? null,
        measure: code,
        due_from: window.from,
        due_until: window.until,
        state: window.until < window.from && !recorded ? 'missed' : dueState(window, recorded, today),
      });
    }
  }
  const deadline = baselineDeadline(p);
  const results = current
    .filter(usable)
    .sort((a, b) => (a.taken_on === b.taken_on ? b.root - a.root : a.taken_on < b.taken_on ? 1 : -1))
    .map((r) => {
      const measure = byMeasure.get(r.measure_id);
      const baseline = r.timepoint === 'baseline' ? null : baselineOf(r.measure_id, current, p);
      const change =
        baseline && r.score !== null ? roundTo(r.score - baseline.score!, measure?.decimals ?? 4) : null;
      return {
        assessment_id: r.assessment_id,
        measure: measure?.code ?? '',
        timepoint: r.timepoint,
        week: r.week,
        taken_on: r.taken_on,
        score: r.score!,
        amended: r.amended,
        baseline: baseline?.score ?? null,
        change,
        mcid_class: change !== null && measure ? mcidClass(change, measure) : null,
        late_baseline: r.timepoint === 'baseline' && deadline !== null && r.taken_on > deadline,
      };
    });
  return { due, results };
}
