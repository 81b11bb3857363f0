import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { messages, type AdminUser } from '@pathway/contract';
import { WarningAlert } from '../../components/WarningAlert';
import { useResetAuthenticator } from './api';
import { AuthenticatorSetup } from './AuthenticatorSetup';

/**
 * Account recovery for someone who lost their phone (full access): after a confirmation the server
 * makes a new TOTP secret and ends their sessions, and the new QR code is shown here once, with
 * the same steps as for a new admin. Only Close remains then.
 */
export function ResetAuthenticatorDialog({ admin, onClose }: { admin: AdminUser; onClose: () => void }) {
  const reset = useResetAuthenticator();
  const done = reset.data;
  return (
    <Dialog
      open
      onClose={onClose}
      fullWidth
      maxWidth="sm"
      aria-labelledby="reset-authenticator-title"
      aria-describedby="reset-authenticator-description"
    >
      <DialogTitle id="reset-authenticator-title">Reset authenticator</DialogTitle>
      <DialogContent dividers>
        {reset.error && <WarningAlert message={reset.error.message} />}
        {done ? (
          <AuthenticatorSetup admin={done} done={done.message} />
        ) : (
          <DialogContentText id="reset-authenticator-description" sx={{ color: 'text.primary' }}>
            <strong>{admin.user_name}</strong>: {messages.admin.resetAuthenticatorConfirm}
          </DialogContentText>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 2 }}>
        <Button onClick={onClose} autoFocus variant={done ? 'contained' : 'text'}>
          {done ? 'Close' : 'Cancel'}
        </Button>
        {!done && (
          <Button
            color="error"
            variant="contained"
            loading={reset.isPending}
            onClick={() => reset.mutate(admin.user_name)}
          >
            Reset authenticator
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
