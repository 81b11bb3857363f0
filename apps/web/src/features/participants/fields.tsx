import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { GENDERS, LANGUAGES, PROGRAMMES } from '@pathway/contract';
import { forwardRef } from 'react';

/** A yes/no question of the referral; unanswered until the admin picks one. */
export function YesNoField({
  id,
  label,
  value,
  onChange,
  error,
}: {
  id: string;
  label: string;
  value: unknown;
  onChange: (value: boolean) => void;
  error?: string;
}) {
  const labelId = `${id}-label`;
  const helperId = `${id}-helper`;
  return (
    <FormControl error={Boolean(error)} required component="fieldset" sx={{ minWidth: 0 }}>
      <FormLabel id={labelId} component="legend">
        {label}
      </FormLabel>
      <RadioGroup
        row
        aria-labelledby={labelId}
        aria-describedby={error ? helperId : undefined}
        name={id}
        value={value === true ? 'yes' : value === false ? 'no' : ''}
        onChange={(event) => onChange(event.target.value === 'yes')}
      >
        <FormControlLabel value="yes" control={<Radio id={`${id}-yes`} />} label="Yes" />
        <FormControlLabel value="no" control={<Radio id={`${id}-no`} />} label="No" />
      </RadioGroup>
      {error && <FormHelperText id={helperId}>{error}</FormHelperText>}
    </FormControl>
  );
}

/** A select of fixed choices; its label is the field table's (the caller's `label`). */
type SelectProps = Omit<TextFieldProps, 'select' | 'children'>;

export const LanguageSelect = forwardRef<HTMLDivElement, SelectProps>(function LanguageSelect(props, ref) {
  return (
    <TextField {...props} ref={ref} select>
      {LANGUAGES.map((language) => (
        <MenuItem key={language} value={language}>
          {language}
        </MenuItem>
      ))}
    </TextField>
  );
});

export const GenderSelect = forwardRef<HTMLDivElement, SelectProps>(function GenderSelect(props, ref) {
  return (
    <TextField {...props} ref={ref} select>
      <MenuItem value="">
        <em>Not given</em>
      </MenuItem>
      {GENDERS.map((gender) => (
        <MenuItem key={gender} value={gender}>
          {gender === 'male' ? 'Male' : 'Female'}
        </MenuItem>
      ))}
    </TextField>
  );
});

export const ProgrammeSelect = forwardRef<HTMLDivElement, SelectProps>(function ProgrammeSelect(props, ref) {
  return (
    <TextField {...props} ref={ref} select>
      {PROGRAMMES.map((programme) => (
        <MenuItem key={programme} value={programme}>
          {programme}
        </MenuItem>
      ))}
    </TextField>
  );
});
