import { hasContactData, type ParticipantBasic, type ParticipantView } from '@pathway/contract';
import type { GridParticipant } from '../cellEdit';

// Dates here are read and written by hand rather than with date-fns: the list shows them at first
// paint, and date-fns' formatter would add its formatting engine to it (its date editor loads date-fns
// later).

/** A grid row: what the admin may see; the date of birth as a Date for the date column. */
export type GridRow = ParticipantBasic & Partial<Omit<GridParticipant, keyof ParticipantBasic>>;

/** A calendar day (YYYY-MM-DD) as local midnight, as date-fns' parseISO reads it; null if no such day. */
export function parseDay(iso: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]) - 1, Number(match[3])];
  const date = new Date(2000, month, day);
  date.setFullYear(year, month, day);
  return date.getFullYear() === year && date.getMonth() === month && date.getDate() === day ? date : null;
}

const two = (n: number) => String(n).padStart(2, '0');

/** DD/MM/YYYY (spec §9); '' for no date. */
export function formatDay(value: Date | null | undefined): string {
  if (!value || Number.isNaN(value.getTime())) return '';
  return `${two(value.getDate())}/${two(value.getMonth() + 1)}/${String(value.getFullYear()).padStart(4, '0')}`;
}

export function toRow(p: ParticipantView): GridRow {
  if (!hasContactData(p)) return p;
  return { ...p, date_of_birth: parseDay(p.date_of_birth) };
}
