import { Controller, type Control, type FieldValues, type Path } from 'react-hook-form';
import { FormTextField } from '../../components/form/FormTextField';
import { DateOfBirthPicker } from './DateOfBirthPicker';
import { GenderSelect, LanguageSelect } from './fields';
import { PARTICIPANT_FIELDS, fieldLabel, type ParticipantOwnField } from './participantFields';

const TEXT_TYPES = { text: undefined, tel: 'tel', email: 'email' } as const;

/** Required on the add page; on edit the same less language (a participant without one may keep none). */
const REQUIRED_ON_ADD: readonly ParticipantOwnField[] = [
  'first_name',
  'last_name',
  'date_of_birth',
  'phone_number',
  'address',
  'language',
];
/** The add page's hints under its fields (the phone format is an add rule only). */
const ADD_HINTS: Partial<Record<ParticipantOwnField, string>> = {
  phone_number: 'A plus sign, the country code and number: 12 digits, e.g. +447700900123',
};
/** Hints on both forms. */
const HINTS: Partial<Record<ParticipantOwnField, string>> = {
  nhs_number: '10 digits, with or without spaces, e.g. 943 476 5919 (optional)',
};

/**
 * One of a participant's own fields in the add page or the edit dialog, as the field table
 * declares it: its label, input, whether it is required there, and its error under it.
 */
export function ParticipantFormField<T extends FieldValues>({
  control,
  name,
  form,
  idPrefix,
}: {
  control: Control<T>;
  name: ParticipantOwnField & Path<T>;
  form: 'add' | 'edit';
  /** e.g. 'add-participant': the input's id is `${idPrefix}-${name}`. */
  idPrefix: string;
}) {
  const spec = PARTICIPANT_FIELDS[name];
  const id = `${idPrefix}-${name}`;
  const required = REQUIRED_ON_ADD.includes(name) && (form === 'add' || name !== 'language');
  const hint = (form === 'add' ? ADD_HINTS[name] : undefined) ?? HINTS[name];
  switch (spec.input) {
    case 'date':
      return (
        <Controller
          name={name}
          control={control}
          render={({ field, fieldState: { error } }) => (
            <DateOfBirthPicker
              id={id}
              label={fieldLabel(name, 'form')}
              required={required}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              error={error?.message}
            />
          )}
        />
      );
    case 'gender':
      return <FormTextField control={control} name={name} as={GenderSelect} id={id} required={required} />;
    case 'language':
      return <FormTextField control={control} name={name} as={LanguageSelect} id={id} required={required} />;
    case 'multiline':
      return (
        <FormTextField
          control={control}
          name={name}
          id={id}
          label={fieldLabel(name, 'form')}
          required={required}
          multiline
          minRows={2}
          hint={hint}
        />
      );
    default:
      return (
        <FormTextField
          control={control}
          name={name}
          id={id}
          label={fieldLabel(name, 'form')}
          required={required}
          // The edit dialog has always taken any text (its phone rule is looser than the add page's).
          type={form === 'add' && spec.input !== 'nhs' ? TEXT_TYPES[spec.input] : undefined}
          hint={hint}
        />
      );
  }
}
