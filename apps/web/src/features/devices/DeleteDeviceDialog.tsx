import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import type { AuthorisedDeviceView } from '@pathway/contract';
import { WarningAlert } from '../../components/WarningAlert';
import { useDeleteDevice } from './api';

/** Delete an unassigned device (spec §4); a refusal of the server is shown in a Warning box. */
export function DeleteDeviceDialog({ device, onClose }: { device: AuthorisedDeviceView; onClose: () => void }) {
  const remove = useDeleteDevice();
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="delete-device-title" aria-describedby="delete-device-description">
      <DialogTitle id="delete-device-title">Delete mobile device</DialogTitle>
      <DialogContent dividers>
        {remove.error && <WarningAlert message={remove.error.message} />}
        <DialogContentText id="delete-device-description" sx={{ color: 'text.primary' }}>
          <strong>
            {device.name} ({device.uuid})
          </strong>{' '}
          will be deleted immediately and can no longer sign in. This cannot be undone.
        </DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 2 }}>
        <Button onClick={onClose} autoFocus>
          Cancel
        </Button>
        <Button color="error" variant="contained" loading={remove.isPending} onClick={() => remove.mutate(device.authorized_device_id, { onSuccess: onClose })}>
          Delete
        </Button>
      </DialogActions>
    </Dialog>
  );
}
