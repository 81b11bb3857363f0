import { format, isValid, parseISO } from 'date-fns';

/** Dates for admins are shown DD/MM/YYYY (spec §9), in the browser's time zone. */
export function formatDate(iso: string): string {
  const date = parseISO(iso);
  return isValid(date) ? format(date, 'dd/MM/yyyy') : '';
}

const longDate = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

/** A calendar day (YYYY-MM-DD) in the long format, e.g. "9 May 2025". */
export function formatLongDate(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? day : longDate.format(date);
}

const shortDate = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const shortDateWithYear = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});

/**
 * A calendar day (YYYY-MM-DD) as a dense table shows it: "3 Nov", with the year when it is not
 * this year ("3 Nov 2025"); never broken across lines, so a cell may wrap the words around it.
 */
export function formatShortDate(day: string, today: Date = new Date()): string {
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  const shown = (date.getUTCFullYear() === today.getFullYear() ? shortDate : shortDateWithYear).format(date);
  return shown.replace(/ /g, '\u00a0');
}
