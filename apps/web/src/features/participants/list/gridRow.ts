import { hasContactData, type ParticipantBasic, type ParticipantView } from '@pathway/contract';
import { isValid, parseISO } from 'date-fns';
import type { GridParticipant } from '../cellEdit';

/** A grid row: what the admin may see; the date of birth as a Date for the date column. */
export type GridRow = ParticipantBasic & Partial<Omit<GridParticipant, keyof ParticipantBasic>>;

export function toRow(p: ParticipantView): GridRow {
  if (!hasContactData(p)) return p;
  const dob = parseISO(p.date_of_birth);
  return { ...p, date_of_birth: isValid(dob) ? dob : null };
}
