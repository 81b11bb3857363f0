/**
 * The programme rules of DESIGN.md as pure functions: the one definition the daily adherence
 * check (in SQL), the progress summary and the console all follow. The SQL of the check is
 * tested against `dailyCheck` below on random schedules.
 */

export interface SetShape {
  number_of_weeks: number;
  videos_in_week: number;
}

export interface Position {
  week: number;
  day: number;
}

export const DAYS_PER_WEEK = 7;

/** Exercise days (one video each) in a set: weeks × videos per week. */
export function exerciseDaysInProgramme(set: SetShape): number {
  return set.number_of_weeks * set.videos_in_week;
}

/** Calendar days the programme lasts: seven per week. */
export function totalDaysInProgramme(set: SetShape): number {
  return set.number_of_weeks * DAYS_PER_WEEK;
}

/** (week, day) → 1-based index of the exercise day in the whole programme. */
export function positionIndex(position: Position, set: SetShape): number {
  return (position.week - 1) * set.videos_in_week + position.day;
}

/** 1-based index → (week, day); the inverse of `positionIndex`. */
export function positionAt(index: number, set: SetShape): Position {
  return {
    week: Math.floor((index - 1) / set.videos_in_week) + 1,
    day: ((index - 1) % set.videos_in_week) + 1,
  };
}

export function isValidPosition(position: Position, set: SetShape): boolean {
  return (
    Number.isInteger(position.week) &&
    Number.isInteger(position.day) &&
    position.week >= 1 &&
    position.week <= set.number_of_weeks &&
    position.day >= 1 &&
    position.day <= set.videos_in_week
  );
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function dayNumber(date: string): number {
  const match = ISO_DATE.exec(date);
  if (!match) throw new Error(`Not a calendar date: ${date}`);
  return Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) / 86_400_000;
}

/**
 * One formatter per time zone, made on first use: building an Intl.DateTimeFormat costs far more
 * than formatting with it, and the dashboard and the worklist format dates on every request.
 */
const calendarFormats = new Map<string, Intl.DateTimeFormat>();

function calendarFormat(timeZone: string): Intl.DateTimeFormat {
  let format = calendarFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    calendarFormats.set(timeZone, format);
  }
  return format;
}

/** The calendar date (YYYY-MM-DD) of an instant in a time zone. */
export function calendarDate(instant: Date, timeZone: string): string {
  const parts = calendarFormat(timeZone).formatToParts(instant);
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** A calendar date moved by whole days. */
export function addDays(date: string, days: number): string {
  return new Date((dayNumber(date) + days) * 86_400_000).toISOString().slice(0, 10);
}

/** Whole calendar days from the start date to today: 0 on the first day, never negative. */
export function daysPassed(startedDate: string, today: string): number {
  return Math.max(0, dayNumber(today) - dayNumber(startedDate));
}

/**
 * Exercise days unlocked after `days` whole days: each 7-day week unlocks one video a day until
 * its `videos_in_week` are out, and nothing beyond the programme's end.
 */
export function shouldSeenByNow(days: number, set: SetShape): number {
  const v = set.videos_in_week;
  const unlocked = Math.floor(days / DAYS_PER_WEEK) * v + Math.min((days % DAYS_PER_WEEK) + 1, v);
  return Math.min(exerciseDaysInProgramme(set), unlocked);
}

export function daysBehind(shouldSeen: number, actuallySeen: number): number {
  return Math.max(0, shouldSeen - actuallySeen);
}

export function percentageProgress(actuallySeen: number, set: SetShape): number {
  return Math.min(100, Math.floor((100 * actuallySeen) / exerciseDaysInProgramme(set)));
}

/**
 * Videos unlocked before today that are still unseen. `days_behind` counts today's video as
 * well (it unlocks at midnight), so a participant who watches every afternoon is 1 behind each
 * morning; this count is what grows when a day really went by without its video.
 */
export function missedVideos(days: number, actuallySeen: number, set: SetShape): number {
  return days < 1 ? 0 : Math.max(0, shouldSeenByNow(days - 1, set) - actuallySeen);
}

/**
 * The day on which a participant who has seen `actuallySeen` videos had first missed `count`: the
 * day after the (actuallySeen + count)th exercise day unlocked. Views catch up the oldest missed
 * day first, so this is the day the participant's current backlog reached `count` (the
 * follow-up worklist's "since" for slightly behind, count 1, and behind, count 3). Null when the
 * programme has fewer exercise days than that.
 */
export function missedCountReachedOn(
  startedDate: string,
  actuallySeen: number,
  count: number,
  set: SetShape,
): string | null {
  const index = actuallySeen + count;
  if (index > exerciseDaysInProgramme(set)) return null;
  const v = set.videos_in_week;
  const unlockedAfter = Math.floor((index - 1) / v) * DAYS_PER_WEEK + ((index - 1) % v);
  return addDays(startedDate, unlockedAfter + 1);
}

/** The follow-up worklist's missed-day facts: the count, and the days it reached 1 and 3. */
export interface MissedDays {
  missed: number;
  first_missed_on: string | null;
  third_missed_on: string | null;
}

export function missedDays(
  startedDate: string,
  today: string,
  actuallySeen: number,
  set: SetShape,
): MissedDays {
  const missed = missedVideos(daysPassed(startedDate, today), actuallySeen, set);
  return {
    missed,
    first_missed_on: missed >= 1 ? missedCountReachedOn(startedDate, actuallySeen, 1, set) : null,
    third_missed_on: missed >= 3 ? missedCountReachedOn(startedDate, actuallySeen, 3, set) : null,
  };
}

/** Average videos watched per calendar day since the start (today included), two decimals. */
export function averageSeenPerDay(days: number, actuallySeen: number): number {
  return Math.round((actuallySeen / (days + 1)) * 100) / 100;
}

export interface DailyCheckInput {
  set: SetShape;
  started_date: string;
  position: Position;
  /** Indexes (see `positionIndex`) of this set's videos the participant has seen. */
  seen: ReadonlySet<number>;
  /** `missedVideos` as the previous check found it. */
  missed_at_check: number;
}

export interface DailyCheckResult {
  days_behind: number;
  percentage_progress: number;
  position: Position;
  /** The position moved to the next day: push "New video available". */
  advanced: boolean;
  missed: number;
  /** The days `missed` reached 1 and 3 (see `missedCountReachedOn`), for the follow-up worklist. */
  first_missed_on: string | null;
  third_missed_on: string | null;
  /** More videos were missed than at the previous check: push "You missed one video". */
  remindMissed: boolean;
}

/**
 * What the daily check does to one participant on `today`: recompute days behind and
 * percentage, move the position one day on once the current day's video is seen and the next
 * day is unlocked, and decide the two reminders.
 */
export function dailyCheck(input: DailyCheckInput, today: string): DailyCheckResult {
  const { set } = input;
  const days = daysPassed(input.started_date, today);
  const should = shouldSeenByNow(days, set);
  const seen = input.seen.size;
  const current = positionIndex(input.position, set);
  const next = current + 1;
  const advanced = input.seen.has(current) && next <= should;
  const { missed, first_missed_on, third_missed_on } = missedDays(input.started_date, today, seen, set);
  return {
    days_behind: daysBehind(should, seen),
    percentage_progress: percentageProgress(seen, set),
    position: advanced ? positionAt(next, set) : input.position,
    advanced,
    missed,
    first_missed_on,
    third_missed_on,
    remindMissed: missed > input.missed_at_check,
  };
}
