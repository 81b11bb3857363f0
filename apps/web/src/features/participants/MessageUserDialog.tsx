import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { hasContactData, messageUserForm, type ParticipantView } from '@pathway/contract';
import { Controller, useForm } from 'react-hook-form';
import { WarningAlert } from '../../components/WarningAlert';
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
  const {
    control,
    handleSubmit,
    formState: { errors },
  } = useForm({ resolver: zodResolver(messageUserForm), defaultValues: { title: '', body: '' } });
  const who = hasContactData(participant)
    ? `${participant.first_name} ${participant.last_name}`
    : `participant ${participant.participant_id}`;

  const save = handleSubmit((message) =>
    send.mutate(
      { ...message, uuid: participant.unique_device_id },
      { onSuccess: (answer) => onSent(answer.message) },
    ),
  );

  return (
    <Dialog
      open
      onClose={onClose}
      fullWidth
      maxWidth="sm"
      aria-labelledby="message-user-title"
      aria-describedby="message-user-description"
    >
      <DialogTitle id="message-user-title">{participantTitle('Message user', participant)}</DialogTitle>
      <Box component="form" noValidate onSubmit={save}>
        <DialogContent dividers>
          {send.error && <WarningAlert message={send.error.message} />}
          <DialogContentText id="message-user-description" sx={{ mb: 2 }}>
            A notification to the tablet of {who} ({participant.name ?? participant.unique_device_id}).
          </DialogContentText>
          <Stack spacing={2.5}>
            <Controller
              name="title"
              control={control}
              render={({ field }) => (
                <TextField
                  {...field}
                  id="message-user-title-field"
                  label="Title"
                  required
                  autoFocus
                  autoComplete="off"
                  error={Boolean(errors.title)}
                  helperText={errors.title?.message}
                />
              )}
            />
            <Controller
              name="body"
              control={control}
              render={({ field }) => (
                <TextField
                  {...field}
                  id="message-user-body"
                  label="Message"
                  required
                  multiline
                  minRows={3}
                  autoComplete="off"
                  error={Boolean(errors.body)}
                  helperText={errors.body?.message}
                />
              )}
            />
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, py: 2 }}>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="contained" loading={send.isPending}>
            Send
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
