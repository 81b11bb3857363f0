import { format, formatDistanceStrict, isValid, parseISO } from 'date-fns';

/** "Tablet last in contact" as staff read it: relative ("3 hours ago"), or "Never". */
export function contactAgo(iso: string | null | undefined, now: Date = new Date()): string {
  if (!iso) return 'Never';
  const at = parseISO(iso);
  if (!isValid(at)) return 'Never';
  // The server keeps contact times to the minute: anything closer reads as just now.
  if (Math.abs(now.getTime() - at.getTime()) < 60_000) return 'Just now';
  return formatDistanceStrict(at, now, { addSuffix: true });
}

/** The exact time beside the relative one (a tooltip, the details). */
export function contactExact(iso: string | null | undefined): string {
  if (!iso) return '';
  const at = parseISO(iso);
  return isValid(at) ? format(at, 'dd/MM/yyyy HH:mm') : '';
}
