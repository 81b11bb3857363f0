import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import {
  editParticipantForm,
  formatNhsNumber,
  participantField,
  type EditParticipantForm,
  type ParticipantFull,
} from '@pathway/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { FormDialog } from '../../components/form/FormDialog';
import { useUpdateParticipant } from './api';
import { ParticipantFormField } from './ParticipantFormField';
import { PossibleDuplicates } from './PossibleDuplicates';
import { EDIT_DIALOG_FIELDS } from './participantFields';
import { participantTitle } from './participantTitle';

type FieldName = keyof EditParticipantForm;

/** The participant's fields as the form holds them: none as blank, the NHS number as it is written. */
function formValues(participant: ParticipantFull): EditParticipantForm {
  return Object.fromEntries(
    EDIT_DIALOG_FIELDS.map((name) => {
      const value = participant[name];
      return [name, participantField(name).form?.input === 'nhs' ? formatNhsNumber(value) : (value ?? '')];
    }),
  ) as EditParticipantForm;
}

/** Edit participant (spec §5): the server's PATCH rules; the phone format is an add rule only. */
export function EditParticipantDialog({
  participant,
  onClose,
}: {
  participant: ParticipantFull;
  onClose: () => void;
}) {
  const update = useUpdateParticipant();
  // Saved, and now like another participant in names and date of birth: said before closing.
  const [duplicates, setDuplicates] = useState<number[]>([]);
  const {
    control,
    handleSubmit,
    formState: { dirtyFields },
  } = useForm({
    resolver: zodResolver(editParticipantForm),
    defaultValues: formValues(participant),
  });

  // Only the fields changed are sent (and recorded in the audit trail).
  const save = handleSubmit((values) => {
    const changes = Object.fromEntries(
      (Object.keys(values) as FieldName[])
        .filter((name) => dirtyFields[name])
        .map((name) => [name, values[name]]),
    );
    if (Object.keys(changes).length === 0) return onClose();
    update.mutate(
      { id: participant.participant_id, changes },
      {
        onSuccess: (saved) =>
          saved.possible_duplicates.length > 0 ? setDuplicates(saved.possible_duplicates) : onClose(),
      },
    );
  });

  const fieldOf = (name: FieldName) => (
    <ParticipantFormField key={name} control={control} name={name} form="edit" idPrefix="edit-participant" />
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
      done={duplicates.length > 0}
    >
      <PossibleDuplicates ids={duplicates} onFollow={onClose} />
      <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
        {EDIT_DIALOG_FIELDS.map((name) =>
          participantField(name).form?.wide === undefined ? (
            fieldOf(name)
          ) : (
            <Box key={name} sx={{ gridColumn: '1 / -1' }}>
              {fieldOf(name)}
            </Box>
          ),
        )}
      </Box>
    </FormDialog>
  );
}
