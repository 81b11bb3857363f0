import { describe, expect, it } from 'vitest';
import {
  createMeasureBody,
  hasAtMostDecimals,
  mcidClass,
  questionnaireRange,
  roundTo,
  scoreAnswers,
  type OutcomesReport,
} from './outcomes.js';
import { outcomesTable } from './report-tables.js';
import { messages } from './messages.js';

const zeroToThree = [0, 1, 2, 3].map((value) => ({ value, label: `${value}` }));

describe('scoring a questionnaire', () => {
  it('sums or averages item values, a reversed item counted from the other end', () => {
    const items = [
      { item_id: 'a', text: 'A', answers: zeroToThree },
      { item_id: 'b', text: 'B', reversed: true, answers: zeroToThree },
    ];
    // b = 0 counts as 0 + 3 - 0 = 3.
    expect(scoreAnswers({ scoring: 'sum', items, decimals: 0 }, { a: 2, b: 0 })).toBe(5);
    expect(scoreAnswers({ scoring: 'mean', items, decimals: 1 }, { a: 2, b: 0 })).toBe(2.5);
    // Half away from zero: (1 + 2) / 2 = 1.5 is 2 with no decimals.
    expect(scoreAnswers({ scoring: 'mean', items, decimals: 0 }, { a: 1, b: 1 })).toBe(2);
    expect(questionnaireRange({ scoring: 'sum', items, decimals: 0 })).toEqual({ min: 0, max: 6 });
    expect(questionnaireRange({ scoring: 'mean', items, decimals: 2 })).toEqual({ min: 0, max: 3 });
  });

  it('rounds and counts decimals as written, not as binary fractions', () => {
    expect(roundTo(1.005, 2)).toBe(1.01);
    expect(roundTo(-2.5, 0)).toBe(-3);
    expect(hasAtMostDecimals(412.5, 1)).toBe(true);
    expect(hasAtMostDecimals(412.5, 0)).toBe(false);
    expect(hasAtMostDecimals(0.1 + 0.2, 2)).toBe(false);
  });

  it('classes a change against the MCID in the better direction, the MCID itself included', () => {
    const walk = { mcid: 20, higher_is_better: true };
    const anxiety = { mcid: 4, higher_is_better: false };
    expect(mcidClass(20, walk)).toBe('improved');
    expect(mcidClass(19, walk)).toBe('unchanged');
    expect(mcidClass(-20, walk)).toBe('worse');
    expect(mcidClass(-4, anxiety)).toBe('improved');
    expect(mcidClass(4, anxiety)).toBe('worse');
    expect(mcidClass(10, { mcid: null, higher_is_better: true })).toBeNull();
  });
});

describe('a measure', () => {
  it('is refused with the range its items give when its score range says otherwise', () => {
    const issue = createMeasureBody.safeParse({
      code: 'Q',
      name: 'Q',
      kind: 'questionnaire',
      scoring: 'sum',
      min: 0,
      max: 5,
      higher_is_better: false,
      items: [
        { item_id: 'a', text: 'A', answers: zeroToThree },
        { item_id: 'b', text: 'B', answers: zeroToThree },
      ],
    }).error?.issues[0]?.message;
    expect(issue).toBe(messages.outcomes.scoreRange(0, 6));
  });
});

describe('the outcomes table', () => {
  const report: OutcomesReport = {
    report: 'outcomes',
    period: { from: '2026-01-01', to: '2026-03-31' },
    measure: '6MWD',
    measure_name: 'Six-minute walk distance',
    unit: 'm',
    mcid: 20,
    higher_is_better: true,
    completed: 7,
    with_baseline: 6,
    baseline_late: 1,
    with_end: 5,
    with_both: 4,
    baseline: { median: 315, q1: 287.5, q3: 347.5 },
    end: { median: 345, q1: 320, q3: 355 },
    median_change: 15,
    improved: 2,
    unchanged: 1,
    worse: 1,
  };

  it('states completeness first, then the pairs', () => {
    expect(outcomesTable([report], false).rows[0]).toEqual([
      'Six-minute walk distance',
      'metres',
      20,
      7,
      6,
      5,
      4,
      57.1,
      1,
      315,
      287.5,
      347.5,
      345,
      320,
      355,
      15,
      2,
      50,
      1,
      25,
      1,
      25,
    ]);
  });

  it('writes counts under 5 as <5 and leaves the statistics of fewer than 5 pairs empty when suppressing', () => {
    expect(outcomesTable([report], true).rows[0]).toEqual([
      'Six-minute walk distance',
      'metres',
      20,
      7,
      6,
      5,
      '<5',
      null,
      '<5',
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      '<5',
      null,
      '<5',
      null,
      '<5',
      null,
    ]);
  });
});
