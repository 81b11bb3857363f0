import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { messages } from '@pathway/contract';
import { useProgressOneDay } from './api';

/**
 * Progress one day forward (spec §4, §8): asks first, then the next day's video becomes
 * available and the participant's tablet is notified with the default message.
 */
export function ProgressForwardDialog({
  participantId,
  onClose,
  onProgressed,
}: {
  participantId: number;
  onClose: () => void;
  onProgressed: (message: string) => void;
}) {
  const forward = useProgressOneDay(participantId);
  return (
    <Dialog
      open
      onClose={onClose}
      aria-labelledby="progress-forward-title"
      aria-describedby="progress-forward-text"
    >
      <DialogTitle id="progress-forward-title">Progress one day forward</DialogTitle>
      <DialogContent>
        {forward.isError && (
          <Alert severity="error" role="alert" sx={{ mb: 2 }}>
            {messages.progress.unableToProgress}: {forward.error.message}
          </Alert>
        )}
        <DialogContentText id="progress-forward-text">
          {messages.progress.confirm} Participant {participantId} moves on to the next day's video, and their
          tablet is notified: "{messages.reminders.newVideoTitle}".
        </DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 2 }}>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="contained"
          onClick={() =>
            forward.mutate(undefined, {
              onSuccess: () => onProgressed(messages.progress.participantNotified),
            })
          }
          loading={forward.isPending}
        >
          Progress and notify
        </Button>
      </DialogActions>
    </Dialog>
  );
}
