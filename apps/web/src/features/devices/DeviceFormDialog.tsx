import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import {
  createDeviceBody,
  isMaskedDeviceUuid,
  renameMaskedDeviceForm,
  type AuthorisedDeviceView,
} from '@pathway/contract';
import { Controller, useForm } from 'react-hook-form';
import { WarningAlert } from '../../components/WarningAlert';
import { useAddDevice, useEditDevice } from './api';

/**
 * Add a device, or edit one (spec §2, §5): the identifiable name and the unique id, which is
 * stored in lower case. A refusal of the server is shown in a Warning box (spec §8).
 */
export function DeviceFormDialog({
  device,
  onClose,
}: {
  device?: AuthorisedDeviceView;
  onClose: () => void;
}) {
  const add = useAddDevice();
  const edit = useEditDevice();
  const mutation = device ? edit : add;
  // Basic access holds an assigned device's uuid masked: it can rename the device, not re-key it.
  const masked = device !== undefined && isMaskedDeviceUuid(device.uuid);
  const {
    control,
    handleSubmit,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(masked ? renameMaskedDeviceForm : createDeviceBody),
    defaultValues: { name: device?.name ?? '', uuid: device?.uuid ?? '' },
  });

  const save = handleSubmit((values) => {
    if (device)
      edit.mutate({ ...device, ...values, uuid: masked ? device.uuid : values.uuid }, { onSuccess: onClose });
    else add.mutate(values, { onSuccess: onClose });
  });

  const title = device ? 'Edit mobile device' : 'Add mobile device';
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="device-form-title">
      <DialogTitle id="device-form-title">{title}</DialogTitle>
      <Box component="form" noValidate onSubmit={save}>
        <DialogContent dividers>
          {mutation.error && <WarningAlert message={mutation.error.message} />}
          <Stack spacing={2.5}>
            <Controller
              name="name"
              control={control}
              render={({ field }) => (
                <TextField
                  {...field}
                  id="device-name"
                  label="Identifiable name"
                  required
                  autoFocus
                  autoComplete="off"
                  error={Boolean(errors.name)}
                  helperText={errors.name?.message ?? 'A name staff can read on the tablet, e.g. its label'}
                />
              )}
            />
            <Controller
              name="uuid"
              control={control}
              render={({ field }) => (
                <TextField
                  {...field}
                  id="device-uuid"
                  label="Universally unique identifier (UUID)"
                  required
                  disabled={masked}
                  autoComplete="off"
                  error={Boolean(errors.uuid)}
                  helperText={
                    masked
                      ? 'Only full-access admins see and change the UUID of an assigned device'
                      : (errors.uuid?.message ?? 'The device ID the tablet app shows; saved in lower case')
                  }
                  slotProps={{ htmlInput: { autoCapitalize: 'none', spellCheck: false } }}
                />
              )}
            />
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, py: 2 }}>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="contained" loading={mutation.isPending}>
            Save
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
