import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import { messages } from '@pathway/contract';

/** A refusal of the server, shown with its own `message` in a box labelled 'Warning!' (spec §8). */
export function WarningAlert({ message }: { message: string }) {
  return (
    <Alert severity="warning" role="alert" sx={{ mb: 2 }}>
      <AlertTitle>{messages.generic.warningTitle}</AlertTitle>
      {message}
    </Alert>
  );
}
