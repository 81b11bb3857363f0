import { AdapterDateFns } from '@mui/x-date-pickers/AdapterDateFns';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { limits } from '@pathway/contract';
import { format, isValid, parseISO } from 'date-fns';
import { enGB } from 'date-fns/locale/en-GB';

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
export function DateOfBirthPicker({ id, label, value, onChange, onBlur, error, required }: Props) {
  const date = value && value !== 'invalid' ? parseISO(value) : null;
  return (
    <LocalizationProvider dateAdapter={AdapterDateFns} adapterLocale={enGB}>
      <DatePicker
        label={label}
        format="dd/MM/yyyy"
        value={date && isValid(date) ? date : value === 'invalid' ? new Date(Number.NaN) : null}
        minDate={EARLIEST}
        disableFuture
        openTo="year"
        views={['year', 'month', 'day']}
        onChange={(next) =>
          onChange(next === null ? '' : isValid(next) ? format(next, 'yyyy-MM-dd') : 'invalid')
        }
        onClose={onBlur}
        slotProps={{
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
