import { AdapterDateFns } from '@mui/x-date-pickers/AdapterDateFns';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { limits } from '@pathway/contract';
import { format, isValid, parseISO } from 'date-fns';
import { enGB } from 'date-fns/locale/en-GB';
import { useState } from 'react';

const EARLIEST = parseISO(limits.dobEarliest);

interface Props {
  id: string;
  label: string;
  /** YYYY-MM-DD, '' when empty, or 'invalid' while what was typed is not a date. */
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  error?: string;
  required?: boolean;
}

/**
 * Date of birth: shown dd/MM/yyyy, kept and sent YYYY-MM-DD (spec §2, §5); 1900-01-01 to today.
 * The form's schema (the contract's) gives the messages, so they are the server's too.
 */
function toDate(value: string): Date | null {
  if (!value) return null;
  if (value === 'invalid') return new Date(Number.NaN);
  const date = parseISO(value);
  return isValid(date) ? date : new Date(Number.NaN);
}

function toValue(date: Date | null): string {
  return date === null ? '' : isValid(date) ? format(date, 'yyyy-MM-dd') : 'invalid';
}

export function DateOfBirthPicker({ id, label, value, onChange, onBlur, error, required }: Props) {
  // The picker is given back the very Date it emitted. A new Date for the same value (an invalid
  // one above all, which never equals another) makes it rebuild its sections from the value while
  // the admin is typing, which is what wiped the day typed over a refused date once the form
  // re-rendered with its errors. A value the form sets itself (a reset) is still followed.
  const [shown, setShown] = useState<Date | null>(() => toDate(value));
  const [lastValue, setLastValue] = useState(value);
  if (value !== lastValue) {
    setLastValue(value);
    if (value !== toValue(shown)) setShown(toDate(value));
  }
  return (
    <LocalizationProvider dateAdapter={AdapterDateFns} adapterLocale={enGB}>
      <DatePicker
        label={label}
        format="dd/MM/yyyy"
        value={shown}
        minDate={EARLIEST}
        disableFuture
        openTo="year"
        views={['year', 'month', 'day']}
        onChange={(next) => {
          const nextValue = toValue(next);
          setShown(next);
          setLastValue(nextValue);
          onChange(nextValue);
        }}
        onClose={onBlur}
        slotProps={{
          // The picker names its dialog after the field's label by the id it would give the
          // field; the field has ours, so the dialog is pointed at our label (else it is nameless).
          popper: { 'aria-labelledby': `${id}-label` },
          textField: {
            id,
            required,
            fullWidth: true,
            onBlur,
            error: Boolean(error),
            helperText: error ?? 'dd/mm/yyyy',
          },
        }}
      />
    </LocalizationProvider>
  );
}
