import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import {
  REFERRAL_FIELDS,
  fieldLabel,
  participantField,
  type ParticipantFieldsWhere,
  type Referral,
  type ReferralField,
} from '@pathway/contract';
import { Controller, type Control } from 'react-hook-form';
import { ProgrammeSelect, YesNoField } from './fields';
import { formFieldsOf } from './participantFields';

type YesNo = ParticipantFieldsWhere<{ form: { input: 'yesNo' } }>;

/** The referral's fields as a form holds them: a yes/no unanswered (null) until picked, text otherwise. */
export type ReferralFormValues = { [K in ReferralField]: K extends YesNo ? boolean | null : string };

const isYesNo = (name: ReferralField) => participantField(name).form?.input === 'yesNo';

/** A referral's answer as the form's values (none given: blank or unanswered). */
export function referralFormValues(referral?: Referral): ReferralFormValues {
  return Object.fromEntries(
    REFERRAL_FIELDS.map((name) => [name, referral?.[name] ?? (isYesNo(name) ? null : '')]),
  ) as ReferralFormValues;
}

export const emptyReferral = referralFormValues();

/** The referral fields of spec §3 (the field table's referral section), shared by the add form and the edit-referral modal. */
export function ReferralFields({
  control,
  errors,
  idPrefix,
}: {
  // The add form and the referral modal hold these same fields among different others.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- forms with different extra fields share this component
  control: Control<any>;
  errors: Partial<Record<ReferralField, { message?: string }>>;
  idPrefix: string;
}) {
  return (
    <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
      {formFieldsOf('referral').map((name) => {
        const input = participantField(name).form?.input;
        const label = fieldLabel(name, 'form');
        const error = errors[name as ReferralField]?.message;
        return (
          <Controller
            key={name}
            name={name}
            control={control}
            render={({ field }) =>
              input === 'yesNo' ? (
                <YesNoField
                  id={`${idPrefix}-${name}`}
                  label={label}
                  value={field.value as unknown}
                  onChange={field.onChange}
                  error={error}
                />
              ) : input === 'programme' ? (
                <ProgrammeSelect
                  {...field}
                  id={`${idPrefix}-programme`}
                  label={label}
                  required
                  error={Boolean(error)}
                  helperText={error}
                />
              ) : (
                <TextField
                  {...field}
                  id={`${idPrefix}-${name}`}
                  label={label}
                  required
                  autoComplete="off"
                  error={Boolean(error)}
                  helperText={error}
                />
              )
            }
          />
        );
      })}
    </Box>
  );
}
