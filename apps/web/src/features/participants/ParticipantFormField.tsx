import { fieldLabel, participantField } from '@pathway/contract';
import { Controller, type Control, type FieldValues, type Path } from 'react-hook-form';
import { FormTextField } from '../../components/form/FormTextField';
import { DateOfBirthPicker } from './DateOfBirthPicker';
import { GenderSelect, LanguageSelect } from './fields';
import { requiredOn, type FormField } from './participantFields';

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
  name: FormField & Path<T>;
  form: 'add' | 'edit';
  /** e.g. 'add-participant': the input's id is `${idPrefix}-${name}`. */
  idPrefix: string;
}) {
  const spec = participantField(name).form!;
  const id = `${idPrefix}-${name}`;
  const required = requiredOn(name, form);
  const hint = (form === 'add' ? spec.addHint : undefined) ?? spec.hint;
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
      return (
        <FormTextField
          control={control}
          name={name}
          as={GenderSelect}
          id={id}
          label={fieldLabel(name, 'form')}
          required={required}
        />
      );
    case 'language':
      return (
        <FormTextField
          control={control}
          name={name}
          as={LanguageSelect}
          id={id}
          label={fieldLabel(name, 'form')}
          required={required}
        />
      );
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
          type={form === 'add' && (spec.input === 'tel' || spec.input === 'email') ? spec.input : undefined}
          hint={hint}
        />
      );
  }
}
