import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { hasContactData, type ParticipantView } from '@pathway/contract';
import { WarningAlert } from '../../components/WarningAlert';
import { useDeleteParticipant } from './api';

/** Delete participant (spec §2, §8): on success the list reloads; a refusal shows the server's message. */
export function DeleteParticipantDialog({
  participant,
  onClose,
  onDeleted,
}: {
  participant: ParticipantView;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const remove = useDeleteParticipant();
  const name = hasContactData(participant) ? `${participant.first_name} ${participant.last_name}` : null;
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="delete-participant-title" aria-describedby="delete-participant-description">
      <DialogTitle id="delete-participant-title">Delete participant</DialogTitle>
      <DialogContent dividers>
        {remove.error && <WarningAlert message={remove.error.message} />}
        <DialogContentText id="delete-participant-description" sx={{ color: 'text.primary' }}>
          <strong>
            Participant {participant.participant_id}
            {name && ` (${name})`}
          </strong>{' '}
          will be deleted immediately, with their referral and progress. Their device becomes available for someone else. This cannot be
          undone.
        </DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 2 }}>
        <Button onClick={onClose} autoFocus>
          Cancel
        </Button>
        <Button color="error" variant="contained" loading={remove.isPending} onClick={() => remove.mutate(participant.participant_id, { onSuccess: onDeleted })}>
          Delete
        </Button>
      </DialogActions>
    </Dialog>
  );
}
