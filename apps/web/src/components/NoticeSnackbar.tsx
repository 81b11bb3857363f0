import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import { useState } from 'react';

/**
 * A confirmation ("Message sent", ...) in a snackbar, so it does not push the page down. It keeps
 * the last message while it slides away.
 */
export function NoticeSnackbar({ notice, onClose }: { notice: string | null; onClose: () => void }) {
  const [shown, setShown] = useState(notice);
  if (notice !== null && notice !== shown) setShown(notice);
  return (
    <Snackbar
      open={notice !== null}
      autoHideDuration={6000}
      onClose={(_event, reason) => reason !== 'clickaway' && onClose()}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
    >
      <Alert severity="success" variant="filled" role="status" onClose={onClose}>
        {notice ?? shown}
      </Alert>
    </Snackbar>
  );
}
