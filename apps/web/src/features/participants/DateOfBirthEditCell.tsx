import { useGridApiContext, type GridRenderEditCellParams } from '@mui/x-data-grid';
import { AdapterDateFns } from '@mui/x-date-pickers/AdapterDateFns';
import { DateField } from '@mui/x-date-pickers/DateField';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { limits } from '@pathway/contract';
import { parseISO } from 'date-fns';
import { enGB } from 'date-fns/locale/en-GB';

const EARLIEST = parseISO(limits.dobEarliest);

/**
 * The grid's date-of-birth editor: typed day, month, year as the cell shows it (dd/MM/yyyy, spec
 * §5), as on the add form and in the edit dialog. The browser's own date input takes the order of
 * the browser's language instead (month first in an American one), so 14031950 typed into it gave
 * 3 December 1950. Each edit mounts a new field, so a date the grid refused leaves nothing behind
 * for the next edit to type over.
 */
export function DateOfBirthEditCell({ id, field, value, hasFocus }: GridRenderEditCellParams) {
  const apiRef = useGridApiContext();
  return (
    <LocalizationProvider dateAdapter={AdapterDateFns} adapterLocale={enGB}>
      <DateField
        value={value instanceof Date ? value : null}
        format="dd/MM/yyyy"
        minDate={EARLIEST}
        disableFuture
        autoFocus={hasFocus}
        fullWidth
        size="small"
        sx={{ px: 0.5 }}
        // Named on the group that holds the day, month and year (the cell has no visible label).
        InputProps={{ 'aria-label': 'Date of birth' }}
        onChange={(next) => void apiRef.current.setEditCellValue({ id, field, value: next })}
      />
    </LocalizationProvider>
  );
}
