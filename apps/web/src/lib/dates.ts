import { format, isValid, parseISO } from 'date-fns';

/** Dates for admins are shown DD/MM/YYYY (spec §9), in the browser's time zone. */
export function formatDate(iso: string): string {
  const date = parseISO(iso);
  return isValid(date) ? format(date, 'dd/MM/yyyy') : '';
}
