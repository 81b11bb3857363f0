import {
  isDateOfBirthInRange,
  messages,
  type ParticipantFull,
  type UpdateParticipantBody,
} from '@pathway/contract';
import { format, isValid } from 'date-fns';
import { INLINE_EDITABLE } from './participantFields';

export { INLINE_EDITABLE, type InlineField } from './participantFields';

/** A grid row: the date of birth as a Date, for the grid's date column and its editor. */
export type GridParticipant = Omit<ParticipantFull, 'date_of_birth'> & { date_of_birth: Date | null };

export class CellEditRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CellEditRefused';
  }
}

function asText(value: unknown): string {
  if (value instanceof Date) return isValid(value) ? format(value, 'yyyy-MM-dd') : '';
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- cell values are scalars (numbers, booleans) by now
  return typeof value === 'string' ? value.trim() : value == null ? '' : String(value);
}

/**
 * The change an inline edit asks for, or null when nothing changed. An empty cell is refused with
 * 'Value cannot be empty' (spec §5), a date of birth typed only in part (14/MM/yyyy) with the
 * forms' 'DOB must be a valid date', and one outside 1900-01-01..today with the DOB range message;
 * the grid then puts the old value back.
 */
export function inlineChange(
  newRow: Partial<GridParticipant>,
  oldRow: Partial<GridParticipant>,
): UpdateParticipantBody | null {
  for (const field of INLINE_EDITABLE) {
    const value = newRow[field];
    if (value instanceof Date && !isValid(value)) throw new CellEditRefused(messages.participant.dobFormat);
    const next = asText(value);
    if (next === asText(oldRow[field])) continue;
    if (!next) throw new CellEditRefused(messages.grid.valueEmpty);
    if (field === 'date_of_birth' && !isDateOfBirthInRange(next))
      throw new CellEditRefused(messages.participant.dobRange);
    return { [field]: next };
  }
  return null;
}
