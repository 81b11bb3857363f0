// Written without date-fns: the participant list shows these times at first paint, and date-fns'
// `format` and `formatDistanceStrict` bring its whole formatting engine and English locale to that
// page. The words and the rounding are date-fns' `formatDistanceStrict` with
// `addSuffix` (contactTime.test.ts compares the two).

const MINUTE_MS = 60_000;
const MINUTES_IN_DAY = 1440;
const MINUTES_IN_MONTH = 43_200;
const MINUTES_IN_YEAR = 525_600;

/** A point in time from the server's ISO 8601 text (with its offset), or null when it is not one. */
function parseInstant(iso: string): Date | null {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? null : at;
}

/** The local time zone's offset at that moment, to the millisecond (as date-fns reckons it). */
function zoneOffsetMs(date: Date): number {
  const utc = new Date(
    Date.UTC(
      date.getFullYear(),
      date.getMonth(),
      date.getDate(),
      date.getHours(),
      date.getMinutes(),
      date.getSeconds(),
      date.getMilliseconds(),
    ),
  );
  utc.setUTCFullYear(date.getFullYear());
  return date.getTime() - utc.getTime();
}

/** Math.round without a negative zero. */
const round = (value: number) => Math.round(value) || 0;

const count = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/** How far apart two moments are in one unit, e.g. "3 hours": date-fns' strict distance. */
function strictDistance(earlier: Date, later: Date): string {
  const milliseconds = later.getTime() - earlier.getTime();
  const minutes = milliseconds / MINUTE_MS;
  // Days, months and years count calendar time: a change of clocks in between does not count.
  const calendarMinutes = (milliseconds - (zoneOffsetMs(later) - zoneOffsetMs(earlier))) / MINUTE_MS;
  if (minutes < 1) return count(round(milliseconds / 1000), 'second');
  if (minutes < 60) return count(round(minutes), 'minute');
  if (minutes < MINUTES_IN_DAY) return count(round(minutes / 60), 'hour');
  if (calendarMinutes < MINUTES_IN_MONTH) return count(round(calendarMinutes / MINUTES_IN_DAY), 'day');
  if (calendarMinutes < MINUTES_IN_YEAR) {
    const months = round(calendarMinutes / MINUTES_IN_MONTH);
    return months === 12 ? count(1, 'year') : count(months, 'month');
  }
  return count(round(calendarMinutes / MINUTES_IN_YEAR), 'year');
}

/** "Tablet last in contact" as staff read it: relative ("3 hours ago"), or "Never". */
export function contactAgo(iso: string | null | undefined, now: Date = new Date()): string {
  if (!iso) return 'Never';
  const at = parseInstant(iso);
  if (!at) return 'Never';
  // The server keeps contact times to the minute: anything closer reads as just now.
  if (Math.abs(now.getTime() - at.getTime()) < MINUTE_MS) return 'Just now';
  return at > now ? `in ${strictDistance(now, at)}` : `${strictDistance(at, now)} ago`;
}

const two = (n: number) => String(n).padStart(2, '0');

/** A moment as DD/MM/YYYY HH:mm in the browser's time zone (spec §9). */
function localDateTime(at: Date): string {
  return `${two(at.getDate())}/${two(at.getMonth() + 1)}/${String(at.getFullYear()).padStart(4, '0')} ${two(at.getHours())}:${two(at.getMinutes())}`;
}

/** The exact time beside the relative one (a tooltip, the details). */
export function contactExact(iso: string | null | undefined): string {
  if (!iso) return '';
  const at = parseInstant(iso);
  return at ? localDateTime(at) : '';
}

const shortMoment = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
});
const shortMomentWithYear = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/**
 * A moment as a dense table shows it, in the browser's time zone: "3 Nov, 14:05", with the year
 * when it is not this year's; `contactExact` gives the whole (a tooltip).
 */
export function contactShort(iso: string | null | undefined, now: Date = new Date()): string {
  if (!iso) return '';
  const at = parseInstant(iso);
  if (!at) return '';
  return (at.getFullYear() === now.getFullYear() ? shortMoment : shortMomentWithYear).format(at);
}
