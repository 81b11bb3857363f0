import MenuItem from '@mui/material/MenuItem';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import type { ComponentType } from 'react';
import { Controller, type Control, type FieldPath, type FieldValues } from 'react-hook-form';

type BoundProps<T extends FieldValues> = {
  control: Control<T>;
  name: FieldPath<T>;
  /** Shown under the field until it has an error. */
  hint?: string;
  /** A TextField of the feature's own (a select of fixed choices, say) in place of the plain one. */
  as?: ComponentType<TextFieldProps>;
};

/**
 * A text field bound to a react-hook-form field: its value, its ref (focus on the first error) and
 * its error message under it, or the hint. `helperText` replaces both when given.
 */
export function FormTextField<T extends FieldValues>({
  control,
  name,
  hint,
  helperText,
  as: Field = TextField,
  ...props
}: BoundProps<T> & Omit<TextFieldProps, 'name' | 'value' | 'onChange' | 'onBlur' | 'error'>) {
  return (
    <Controller
      name={name}
      control={control}
      render={({ field, fieldState: { error } }) => (
        <Field
          {...field}
          autoComplete="off"
          {...props}
          error={Boolean(error)}
          helperText={helperText ?? error?.message ?? hint}
        />
      )}
    />
  );
}

export interface SelectOption {
  value: string;
  label: string;
}

/** A select bound to a react-hook-form field; `emptyLabel` offers "no choice" as the first option. */
export function FormSelect<T extends FieldValues>({
  options,
  emptyLabel,
  ...props
}: BoundProps<T> &
  Omit<TextFieldProps, 'name' | 'value' | 'onChange' | 'onBlur' | 'error' | 'select' | 'children'> & {
    options: readonly SelectOption[];
    emptyLabel?: string;
  }) {
  return (
    <FormTextField {...props} select>
      {emptyLabel !== undefined && (
        <MenuItem value="">
          <em>{emptyLabel}</em>
        </MenuItem>
      )}
      {options.map((option) => (
        <MenuItem key={option.value} value={option.value}>
          {option.label}
        </MenuItem>
      ))}
    </FormTextField>
  );
}
