import Box from '@mui/material/Box';
import Button, { type ButtonProps } from '@mui/material/Button';
import Dialog, { type DialogProps } from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import type { FormEventHandler, ReactNode } from 'react';
import { WarningAlert } from '../WarningAlert';

/**
 * A modal form: its title, the server's refusal in a Warning box (spec §8), the fields, and
 * Cancel beside the submit button, which shows progress while the request is under way.
 */
export function FormDialog({
  id,
  title,
  onClose,
  onSubmit,
  pending,
  error,
  children,
  submitLabel = 'Save',
  submitColor,
  maxWidth = 'sm',
  describedBy,
  done = false,
}: {
  /** Prefix of the dialog's element ids: `${id}-title` names the dialog. */
  id: string;
  title: ReactNode;
  onClose: () => void;
  onSubmit: FormEventHandler<HTMLFormElement>;
  pending: boolean;
  /** The last refusal of the server, if any. */
  error: Error | null;
  children: ReactNode;
  submitLabel?: string;
  submitColor?: ButtonProps['color'];
  maxWidth?: DialogProps['maxWidth'];
  /** The id of the element that describes the dialog. */
  describedBy?: string;
  /** Once the form has done its work and shows the outcome: Close alone remains. */
  done?: boolean;
}) {
  return (
    <Dialog
      open
      onClose={onClose}
      fullWidth
      maxWidth={maxWidth}
      aria-labelledby={`${id}-title`}
      aria-describedby={describedBy}
    >
      <DialogTitle id={`${id}-title`}>{title}</DialogTitle>
      <Box component="form" noValidate onSubmit={onSubmit}>
        <DialogContent dividers>
          {error && <WarningAlert message={error.message} />}
          {children}
        </DialogContent>
        <DialogActions sx={{ px: 3, py: 2 }}>
          <Button onClick={onClose} variant={done ? 'contained' : 'text'}>
            {done ? 'Close' : 'Cancel'}
          </Button>
          {!done && (
            <Button type="submit" variant="contained" color={submitColor} loading={pending}>
              {submitLabel}
            </Button>
          )}
        </DialogActions>
      </Box>
    </Dialog>
  );
}
