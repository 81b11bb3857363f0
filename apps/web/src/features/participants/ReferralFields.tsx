import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import { Controller, type Control } from 'react-hook-form';
import { ProgrammeSelect, YesNoField } from './fields';

export interface ReferralFormValues {
  programme_referred_to: string;
  referring_organisation: string;
  referring_healthcare_professional: string;
  referring_healthcare_professional_role: string;
  checked_contraindications_to_exercise: boolean | null;
  smoker: boolean | null;
  diabetes: boolean | null;
  registered_deaf: boolean | null;
}

export const emptyReferral: ReferralFormValues = {
  programme_referred_to: '',
  referring_organisation: '',
  referring_healthcare_professional: '',
  referring_healthcare_professional_role: '',
  checked_contraindications_to_exercise: null,
  smoker: null,
  diabetes: null,
  registered_deaf: null,
};

const QUESTIONS = [
  ['checked_contraindications_to_exercise', 'Contraindications to exercise checked'],
  ['smoker', 'Smoker'],
  ['diabetes', 'Diabetes'],
  ['registered_deaf', 'Registered deaf'],
] as const;

const TEXTS = [
  ['referring_organisation', 'Referring organisation'],
  ['referring_healthcare_professional', 'Referring healthcare professional'],
  ['referring_healthcare_professional_role', 'Referring healthcare professional role'],
] as const;

/** The referral fields of spec §3, shared by the add form and the edit-referral modal. */
export function ReferralFields({
  control,
  errors,
  idPrefix,
}: {
  // The add form and the referral modal hold these same fields among different others.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- forms with different extra fields share this component
  control: Control<any>;
  errors: Partial<Record<keyof ReferralFormValues, { message?: string }>>;
  idPrefix: string;
}) {
  return (
    <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
      <Controller
        name="programme_referred_to"
        control={control}
        render={({ field }) => (
          <ProgrammeSelect
            {...field}
            id={`${idPrefix}-programme`}
            required
            error={Boolean(errors.programme_referred_to)}
            helperText={errors.programme_referred_to?.message}
          />
        )}
      />
      {TEXTS.map(([name, label]) => (
        <Controller
          key={name}
          name={name}
          control={control}
          render={({ field }) => (
            <TextField
              {...field}
              id={`${idPrefix}-${name}`}
              label={label}
              required
              autoComplete="off"
              error={Boolean(errors[name])}
              helperText={errors[name]?.message}
            />
          )}
        />
      ))}
      {QUESTIONS.map(([name, label]) => (
        <Controller
          key={name}
          name={name}
          control={control}
          render={({ field }) => (
            <YesNoField
              id={`${idPrefix}-${name}`}
              label={label}
              value={field.value as unknown}
              onChange={field.onChange}
              error={errors[name]?.message}
            />
          )}
        />
      ))}
    </Box>
  );
}
