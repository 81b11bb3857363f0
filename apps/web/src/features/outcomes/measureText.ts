import { unitLabel, type Measure } from '@pathway/contract';

/** A measure as a choice reads: its name and what it records in. */
export function measureLabel(m: Pick<Measure, 'name' | 'kind' | 'unit'>): string {
  return m.kind === 'questionnaire' ? `${m.name} (questionnaire)` : `${m.name} (${unitLabel(m.unit)})`;
}

/** What a numeric measure takes: "From 10 to 1,000 metres, a whole number." */
export function rangeHint(m: Pick<Measure, 'min' | 'max' | 'unit' | 'decimals'>): string {
  const n = (v: number) => v.toLocaleString('en-GB');
  const places =
    m.decimals === 0 ? 'a whole number' : `at most ${m.decimals} decimal place${m.decimals === 1 ? '' : 's'}`;
  return `From ${n(m.min)} to ${n(m.max)} ${unitLabel(m.unit)}, ${places}.`;
}

/** A value and its unit as the participant's results show it: "412 metres", "9 points". */
export function valueText(value: number, unit: string): string {
  return `${value.toLocaleString('en-GB')} ${unitLabel(unit)}`;
}

/**
 * A value far from the participant's baseline (under half or over twice it) is more often a value
 * in another unit (feet for metres, seconds for minutes) or with a digit too many than a real
 * change: the form asks for it to be confirmed. Null when there is nothing to compare.
 */
export function unitWarning(value: number, baseline: number | null, m: Pick<Measure, 'unit'>): string | null {
  if (baseline === null || baseline <= 0 || !Number.isFinite(value) || value <= 0) return null;
  const ratio = value / baseline;
  if (ratio <= 2 && ratio >= 0.5) return null;
  return `This is ${Math.round(ratio * 100)}% of the participant's baseline (${valueText(baseline, m.unit)}): a value taken in another unit, or with a digit too many, looks like this.`;
}
