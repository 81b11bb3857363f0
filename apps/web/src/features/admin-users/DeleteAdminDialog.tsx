import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { messages, type AdminUser } from '@pathway/contract';
import { WarningAlert } from '../../components/WarningAlert';
import { useDeleteAdmin } from './api';

export function DeleteAdminDialog({ admin, onClose }: { admin: AdminUser; onClose: () => void }) {
  const remove = useDeleteAdmin();
  const name = [admin.first_name, admin.last_name].filter(Boolean).join(' ');
  return (
    <Dialog
      open
      onClose={onClose}
      fullWidth
      maxWidth="xs"
      aria-labelledby="delete-admin-title"
      aria-describedby="delete-admin-description"
    >
      <DialogTitle id="delete-admin-title">Delete admin user</DialogTitle>
      <DialogContent dividers>
        {remove.error && <WarningAlert message={remove.error.message} />}
        <DialogContentText id="delete-admin-description" sx={{ color: 'text.primary' }}>
          <strong>{admin.user_name}</strong>
          {name && ` (${name})`}: {messages.admin.deleteConfirm}
        </DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 2 }}>
        <Button onClick={onClose} autoFocus>
          Cancel
        </Button>
        <Button
          color="error"
          variant="contained"
          loading={remove.isPending}
          onClick={() => remove.mutate(admin.user_name, { onSuccess: onClose })}
        >
          Delete
        </Button>
      </DialogActions>
    </Dialog>
  );
}
