import { calendarDate } from '@pathway/contract';
import type { AppContext } from '../context.js';

/**
 * Today's date in the programme's time zone (the daily check's, Europe/London by default):
 * started_date, last_seen_date, daysPassed and the daily view counts all use this calendar.
 */
export function programmeToday(ctx: Pick<AppContext, 'clock' | 'config'>): string {
  return calendarDate(ctx.clock.now(), ctx.config.adherenceCheck.timeZone);
}
