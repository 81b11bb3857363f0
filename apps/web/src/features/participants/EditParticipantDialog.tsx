import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import { editParticipantForm, type EditParticipantForm, type ParticipantFull } from '@pathway/contract';
import { useForm } from 'react-hook-form';
import { FormDialog } from '../../components/form/FormDialog';
import { useUpdateParticipant } from './api';
import { ParticipantFormField } from './ParticipantFormField';
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
    formState: { dirtyFields },
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

  const fieldOf = (name: FieldName) => (
    <ParticipantFormField control={control} name={name} form="edit" idPrefix="edit-participant" />
  );

  return (
    <FormDialog
      id="edit-participant"
      title={participantTitle('Edit participant', participant)}
      onClose={onClose}
      onSubmit={save}
      pending={update.isPending}
      error={update.error}
      maxWidth="md"
    >
      <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
        {fieldOf('first_name')}
        {fieldOf('last_name')}
        {fieldOf('date_of_birth')}
        {fieldOf('gender')}
        {fieldOf('phone_number')}
        {fieldOf('phone_number_secondary')}
        {fieldOf('email')}
        {fieldOf('language')}
        <Box sx={{ gridColumn: '1 / -1' }}>{fieldOf('address')}</Box>
        <Box sx={{ gridColumn: '1 / -1' }}>{fieldOf('notes')}</Box>
      </Box>
    </FormDialog>
  );
}
