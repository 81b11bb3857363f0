import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Box from '@mui/material/Box';
import type { ReactNode } from 'react';
import { WarningAlert } from './WarningAlert';

export interface ConfirmDeleteDialogProps {
  /** Prefix of the dialog's element ids (`<id>-title`, `<id>-description`), unique on the page. */
  id: string;
  title: string;
  /** What is deleted, in a sentence (shown as the dialog's description). */
  text: ReactNode;
  /** More about what follows from the deletion, below the sentence. */
  children?: ReactNode;
  /** The server's refusal of the last attempt, shown in a 'Warning!' box (spec §8). */
  error: Error | null;
  pending: boolean;
  onConfirm: () => void;
  onClose: () => void;
  /** The spec names the dismiss button per screen: 'Cancel' by default, 'Close' for videos. */
  cancelLabel?: string;
  /** The confirming button: 'Delete' by default; another irreversible act names itself. */
  confirmLabel?: string;
  confirmDisabled?: boolean;
  maxWidth?: 'xs' | 'sm';
}

/**
 * The one shape of every "Delete ..." modal: a title, what will be deleted, the server's refusal
 * if any, and the dismiss button focused first so Enter never deletes by accident.
 */
export function ConfirmDeleteDialog({
  id,
  title,
  text,
  children,
  error,
  pending,
  onConfirm,
  onClose,
  cancelLabel = 'Cancel',
  confirmLabel = 'Delete',
  confirmDisabled = false,
  maxWidth = 'xs',
}: ConfirmDeleteDialogProps) {
  return (
    <Dialog
      open
      onClose={onClose}
      fullWidth
      maxWidth={maxWidth}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-description`}
    >
      <DialogTitle id={`${id}-title`}>{title}</DialogTitle>
      <DialogContent dividers>
        {error && <WarningAlert message={error.message} />}
        <Box id={`${id}-description`}>
          <DialogContentText sx={{ color: 'text.primary', mb: children ? 1 : 0 }}>{text}</DialogContentText>
          {children}
        </Box>
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 2 }}>
        <Button onClick={onClose} autoFocus>
          {cancelLabel}
        </Button>
        <Button
          color="error"
          variant="contained"
          disabled={confirmDisabled}
          loading={pending}
          onClick={onConfirm}
        >
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
