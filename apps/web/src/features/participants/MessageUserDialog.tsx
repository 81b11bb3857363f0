import { zodResolver } from '@hookform/resolvers/zod';
import DialogContentText from '@mui/material/DialogContentText';
import Stack from '@mui/material/Stack';
import { hasContactData, messageUserForm, type ParticipantView } from '@pathway/contract';
import { useForm } from 'react-hook-form';
import { FormDialog } from '../../components/form/FormDialog';
import { FormTextField } from '../../components/form/FormTextField';
import { useMessageParticipant } from './api';
import { participantTitle } from './participantTitle';

/**
 * Message user (spec §2, §5): a push message to the participant's tablet. A failure stays in the
 * modal; on success the modal closes and the list reloads (spec §8).
 */
export function MessageUserDialog({
  participant,
  onClose,
  onSent,
}: {
  participant: ParticipantView;
  onClose: () => void;
  onSent: (message: string) => void;
}) {
  const send = useMessageParticipant();
  const { control, handleSubmit } = useForm({
    resolver: zodResolver(messageUserForm),
    defaultValues: { title: '', body: '' },
  });
  const who = hasContactData(participant)
    ? `${participant.first_name} ${participant.last_name}`
    : `participant ${participant.participant_id}`;

  const save = handleSubmit((message) =>
    send.mutate(
      // By participant: a basic-access admin holds the device uuid masked only.
      { ...message, participant_id: participant.participant_id },
      { onSuccess: (answer) => onSent(answer.message) },
    ),
  );

  return (
    <FormDialog
      id="message-user"
      title={participantTitle('Message user', participant)}
      describedBy="message-user-description"
      onClose={onClose}
      onSubmit={save}
      pending={send.isPending}
      error={send.error}
      submitLabel="Send"
    >
      <DialogContentText id="message-user-description" sx={{ mb: 2 }}>
        A notification to the tablet of {who} ({participant.name ?? participant.unique_device_id}).
      </DialogContentText>
      <Stack spacing={2.5}>
        <FormTextField
          control={control}
          name="title"
          id="message-user-title-field"
          label="Title"
          required
          autoFocus
        />
        <FormTextField
          control={control}
          name="body"
          id="message-user-body"
          label="Message"
          required
          multiline
          minRows={3}
        />
      </Stack>
    </FormDialog>
  );
}
