import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput, { type OutlinedInputProps } from '@mui/material/OutlinedInput';
import type { ReactNode } from 'react';

interface OutlinedFieldProps extends Omit<OutlinedInputProps, 'id' | 'label'> {
  id: string;
  label: string;
  helperText?: ReactNode;
}

/**
 * What the sign-in form needs of MUI's TextField (outlined), built from its parts: TextField
 * imports Select and with it menus, popovers and modals, which the first page of the console
 * would download for nothing.
 */
export function OutlinedField({ id, label, helperText, required, error, ...input }: OutlinedFieldProps) {
  const helperId = helperText ? `${id}-helper-text` : undefined;
  return (
    <FormControl variant="outlined" required={required} error={error} fullWidth>
      <InputLabel htmlFor={id}>{label}</InputLabel>
      <OutlinedInput id={id} label={label} aria-describedby={helperId} {...input} />
      {helperText && <FormHelperText id={helperId}>{helperText}</FormHelperText>}
    </FormControl>
  );
}
