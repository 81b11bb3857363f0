import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  calendarDate,
  dailyCheck,
  daysPassed,
  exerciseDaysInProgramme,
  missedCountReachedOn,
  missedVideos,
  percentageProgress,
  positionAt,
  positionIndex,
  shouldSeenByNow,
  type Position,
  type SetShape,
} from './programme.js';

const setShape = fc.record({
  number_of_weeks: fc.integer({ min: 1, max: 12 }),
  videos_in_week: fc.integer({ min: 1, max: 7 }),
});
const calendarDay = fc
  .date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2035-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));

describe('positions', () => {
  it('index and (week, day) are inverse over the whole set', () => {
    fc.assert(
      fc.property(setShape, (set) => {
        const total = exerciseDaysInProgramme(set);
        for (let index = 1; index <= total; index++) {
          const position = positionAt(index, set);
          expect(position.week).toBeGreaterThanOrEqual(1);
          expect(position.week).toBeLessThanOrEqual(set.number_of_weeks);
          expect(position.day).toBeGreaterThanOrEqual(1);
          expect(position.day).toBeLessThanOrEqual(set.videos_in_week);
          expect(positionIndex(position, set)).toBe(index);
        }
      }),
    );
  });

  it('maps week 2 day 1 of a 3-a-week set to the fourth exercise day', () => {
    expect(positionIndex({ week: 2, day: 1 }, { number_of_weeks: 4, videos_in_week: 3 })).toBe(4);
    expect(positionAt(4, { number_of_weeks: 4, videos_in_week: 3 })).toEqual({ week: 2, day: 1 });
  });
});

describe('calendar days', () => {
  it('days passed counts whole calendar days and is never negative', () => {
    fc.assert(
      fc.property(calendarDay, fc.integer({ min: -400, max: 2000 }), (start, n) => {
        expect(daysPassed(start, addDays(start, n))).toBe(Math.max(0, n));
      }),
    );
  });

  it('takes the date in the programme time zone, across daylight saving changes', () => {
    expect(calendarDate(new Date('2025-03-30T00:30:00Z'), 'Europe/London')).toBe('2025-03-30');
    expect(calendarDate(new Date('2025-06-30T23:30:00Z'), 'Europe/London')).toBe('2025-07-01');
    expect(calendarDate(new Date('2025-10-25T23:30:00Z'), 'Europe/London')).toBe('2025-10-26');
    expect(calendarDate(new Date('2025-12-31T23:30:00Z'), 'Europe/London')).toBe('2025-12-31');
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2025-03-01', -1)).toBe('2025-02-28');
  });
});

describe('shouldSeenByNow', () => {
  it('unlocks one video on the first day and one a day until each week has its videos', () => {
    fc.assert(
      fc.property(setShape, (set) => {
        const total = exerciseDaysInProgramme(set);
        expect(shouldSeenByNow(0, set)).toBe(1);
        for (let day = 1; day < set.number_of_weeks * 7 + 14; day++) {
          const step = shouldSeenByNow(day, set) - shouldSeenByNow(day - 1, set);
          const dayOfWeek = day % 7;
          const week = Math.floor(day / 7);
          const expected = week < set.number_of_weeks && dayOfWeek < set.videos_in_week ? 1 : 0;
          expect(step).toBe(expected);
          expect(shouldSeenByNow(day, set)).toBeLessThanOrEqual(total);
        }
        expect(shouldSeenByNow(set.number_of_weeks * 7, set)).toBe(total);
      }),
    );
  });

  it('follows the formula of DESIGN.md', () => {
    fc.assert(
      fc.property(setShape, fc.integer({ min: 0, max: 1000 }), (set, d) => {
        const v = set.videos_in_week;
        expect(shouldSeenByNow(d, set)).toBe(
          Math.min(set.number_of_weeks * v, Math.floor(d / 7) * v + Math.min((d % 7) + 1, v)),
        );
      }),
    );
  });
});

describe('percentage', () => {
  it('percentage is floor(100 × seen / exercise days), from 0 to 100', () => {
    fc.assert(
      fc.property(setShape, fc.nat(), (set, n) => {
        const seen = n % (exerciseDaysInProgramme(set) + 1);
        const pct = percentageProgress(seen, set);
        expect(pct).toBe(Math.floor((100 * seen) / exerciseDaysInProgramme(set)));
        expect(pct).toBeGreaterThanOrEqual(0);
        expect(pct).toBeLessThanOrEqual(100);
      }),
    );
    expect(percentageProgress(1, { number_of_weeks: 1, videos_in_week: 3 })).toBe(33);
  });
});

/**
 * A participant over a random schedule: each morning the daily check runs, then they watch up
 * to `plan[day]` of the videos available to them (those up to their position), in order.
 */
function simulate(set: SetShape, plan: number[]) {
  const start = '2025-03-24';
  let position: Position = { week: 1, day: 1 };
  const seen = new Set<number>();
  let missedAtCheck = 0;
  const log: { day: number; result: ReturnType<typeof dailyCheck>; before: Position; seenBefore: number }[] =
    [];
  const watch = (count: number) => {
    const available = positionIndex(position, set);
    for (let index = 1; index <= available && count > 0; index++) {
      if (!seen.has(index)) {
        seen.add(index);
        count--;
      }
    }
  };
  watch(plan[0] ?? 0);
  for (let day = 1; day < plan.length; day++) {
    const before = position;
    const seenBefore = seen.size;
    const result = dailyCheck(
      { set, started_date: start, position, seen, missed_at_check: missedAtCheck },
      addDays(start, day),
    );
    log.push({ day, result, before, seenBefore });
    position = result.position;
    missedAtCheck = result.missed;
    watch(plan[day]!);
  }
  return log;
}

describe('the daily check over random schedules', () => {
  const schedule = fc.tuple(
    setShape,
    fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 100 }),
  );

  it('keeps every figure within its bounds and moves at most one day, only onto unlocked days', () => {
    fc.assert(
      fc.property(schedule, ([set, plan]) => {
        let lastPct = 0;
        for (const { day, result, before, seenBefore } of simulate(set, plan)) {
          const should = shouldSeenByNow(day, set);
          expect(result.days_behind).toBe(Math.max(0, should - seenBefore));
          expect(result.percentage_progress).toBeGreaterThanOrEqual(lastPct);
          lastPct = result.percentage_progress;
          const moved = positionIndex(result.position, set) - positionIndex(before, set);
          expect(moved).toBe(result.advanced ? 1 : 0);
          expect(positionIndex(result.position, set)).toBeLessThanOrEqual(
            Math.max(should, positionIndex(before, set)),
          );
          expect(result.missed).toBe(missedVideos(day, seenBefore, set));
        }
      }),
    );
  });

  it('never reminds someone who watches each video on the day it unlocks, and never leaves them more than 1 behind', () => {
    fc.assert(
      fc.property(setShape, fc.integer({ min: 1, max: 100 }), (set, length) => {
        for (const { result } of simulate(
          set,
          Array.from({ length }, () => 1),
        )) {
          expect(result.remindMissed).toBe(false);
          expect(result.days_behind).toBeLessThanOrEqual(1);
        }
      }),
    );
  });

  it('reminds someone who watches nothing exactly on the mornings after a video unlocked', () => {
    fc.assert(
      fc.property(setShape, fc.integer({ min: 2, max: 100 }), (set, length) => {
        for (const { day, result } of simulate(
          set,
          Array.from({ length }, () => 0),
        )) {
          const unlockedYesterday =
            shouldSeenByNow(day - 1, set) - (day >= 2 ? shouldSeenByNow(day - 2, set) : 0);
          expect(result.remindMissed).toBe(unlockedYesterday > 0);
          expect(result.advanced).toBe(false);
          expect(result.days_behind).toBe(shouldSeenByNow(day, set));
        }
      }),
    );
  });

  it('reminds only when a day went by without its video', () => {
    fc.assert(
      fc.property(schedule, ([set, plan]) => {
        for (const { result } of simulate(set, plan)) {
          if (result.remindMissed) expect(result.missed).toBeGreaterThan(0);
        }
      }),
    );
  });
});

describe('the day the missed videos reached a count', () => {
  it('is the first day on which that many videos were missed, with the videos seen now', () => {
    fc.assert(
      fc.property(
        setShape,
        calendarDay,
        fc.nat(),
        fc.integer({ min: 1, max: 5 }),
        (set, start, seenPick, count) => {
          const total = exerciseDaysInProgramme(set);
          const seen = seenPick % (total + 1);
          const day = missedCountReachedOn(start, seen, count, set);
          if (seen + count > total) {
            expect(day).toBeNull();
            return;
          }
          expect(day).not.toBeNull();
          const passed = daysPassed(start, day!);
          expect(missedVideos(passed, seen, set)).toBeGreaterThanOrEqual(count);
          expect(missedVideos(passed - 1, seen, set)).toBeLessThan(count);
        },
      ),
    );
  });

  it('counts rest days as days that unlock nothing', () => {
    const set = { number_of_weeks: 2, videos_in_week: 3 };
    // Days 0-2 unlock videos 1-3, days 3-6 are rest days, day 7 unlocks video 4.
    expect(missedCountReachedOn('2025-03-03', 0, 1, set)).toBe('2025-03-04');
    expect(missedCountReachedOn('2025-03-03', 0, 3, set)).toBe('2025-03-06');
    expect(missedCountReachedOn('2025-03-03', 2, 1, set)).toBe('2025-03-06');
    expect(missedCountReachedOn('2025-03-03', 3, 1, set)).toBe('2025-03-11');
    expect(missedCountReachedOn('2025-03-03', 4, 3, set)).toBeNull();
  });
});
