import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { editParticipantForm, type EditParticipantForm, type ParticipantFull } from '@pathway/contract';
import { Controller, useForm } from 'react-hook-form';
import { WarningAlert } from '../../components/WarningAlert';
import { useUpdateParticipant } from './api';
import { DateOfBirthPicker } from './DateOfBirthPicker';
import { GenderSelect, LanguageSelect } from './fields';
import { participantTitle } from './participantTitle';

type FieldName = keyof EditParticipantForm;

/** Edit participant (spec §5): the server's PATCH rules; the phone format is an add rule only. */
export function EditParticipantDialog({
  participant,
  onClose,
}: {
  participant: ParticipantFull;
  onClose: () => void;
}) {
  const update = useUpdateParticipant();
  const {
    control,
    handleSubmit,
    formState: { errors, dirtyFields },
  } = useForm({
    resolver: zodResolver(editParticipantForm),
    defaultValues: {
      first_name: participant.first_name,
      last_name: participant.last_name,
      date_of_birth: participant.date_of_birth,
      gender: participant.gender ?? '',
      email: participant.email ?? '',
      phone_number: participant.phone_number,
      phone_number_secondary: participant.phone_number_secondary ?? '',
      address: participant.address,
      language: participant.language ?? '',
      notes: participant.notes ?? '',
    },
  });

  // Only the fields changed are sent (and recorded in the audit trail).
  const save = handleSubmit((values) => {
    const changes = Object.fromEntries(
      (Object.keys(values) as FieldName[])
        .filter((name) => dirtyFields[name])
        .map((name) => [name, values[name]]),
    );
    if (Object.keys(changes).length === 0) return onClose();
    update.mutate({ id: participant.participant_id, changes }, { onSuccess: onClose });
  });

  const text = (
    name: 'first_name' | 'last_name' | 'email' | 'phone_number' | 'phone_number_secondary',
    label: string,
    required = false,
  ) => (
    <Controller
      name={name}
      control={control}
      render={({ field }) => (
        <TextField
          {...field}
          id={`edit-participant-${name}`}
          label={label}
          required={required}
          autoComplete="off"
          error={Boolean(errors[name])}
          helperText={errors[name]?.message}
        />
      )}
    />
  );

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby="edit-participant-title">
      <DialogTitle id="edit-participant-title">
        {participantTitle('Edit participant', participant)}
      </DialogTitle>
      <Box component="form" noValidate onSubmit={save}>
        <DialogContent dividers>
          {update.error && <WarningAlert message={update.error.message} />}
          <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
            {text('first_name', 'First name', true)}
            {text('last_name', 'Last name', true)}
            <Controller
              name="date_of_birth"
              control={control}
              render={({ field }) => (
                <DateOfBirthPicker
                  id="edit-participant-date_of_birth"
                  label="Date of birth"
                  required
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  error={errors.date_of_birth?.message}
                />
              )}
            />
            <Controller
              name="gender"
              control={control}
              render={({ field }) => (
                <GenderSelect
                  {...field}
                  id="edit-participant-gender"
                  error={Boolean(errors.gender)}
                  helperText={errors.gender?.message}
                />
              )}
            />
            {text('phone_number', 'Phone number', true)}
            {text('phone_number_secondary', 'Secondary phone number')}
            {text('email', 'Email')}
            <Controller
              name="language"
              control={control}
              render={({ field }) => (
                <LanguageSelect
                  {...field}
                  id="edit-participant-language"
                  error={Boolean(errors.language)}
                  helperText={errors.language?.message}
                />
              )}
            />
            <Box sx={{ gridColumn: '1 / -1' }}>
              <Controller
                name="address"
                control={control}
                render={({ field }) => (
                  <TextField
                    {...field}
                    id="edit-participant-address"
                    label="Address"
                    required
                    multiline
                    minRows={2}
                    autoComplete="off"
                    error={Boolean(errors.address)}
                    helperText={errors.address?.message}
                  />
                )}
              />
            </Box>
            <Box sx={{ gridColumn: '1 / -1' }}>
              <Controller
                name="notes"
                control={control}
                render={({ field }) => (
                  <TextField
                    {...field}
                    id="edit-participant-notes"
                    label="Notes"
                    multiline
                    minRows={2}
                    autoComplete="off"
                    error={Boolean(errors.notes)}
                    helperText={errors.notes?.message}
                  />
                )}
              />
            </Box>
          </Box>
        </DialogContent>
        <DialogActions sx={{ px: 3, py: 2 }}>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="contained" loading={update.isPending}>
            Save
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
