import { zodResolver } from '@hookform/resolvers/zod';
import Stack from '@mui/material/Stack';
import {
  createDeviceBody,
  isMaskedDeviceUuid,
  renameMaskedDeviceForm,
  type AuthorisedDeviceView,
} from '@pathway/contract';
import { useForm } from 'react-hook-form';
import { FormDialog } from '../../components/form/FormDialog';
import { FormTextField } from '../../components/form/FormTextField';
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
  const { control, handleSubmit } = useForm({
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
    <FormDialog
      id="device-form"
      title={title}
      onClose={onClose}
      onSubmit={save}
      pending={mutation.isPending}
      error={mutation.error}
    >
      <Stack spacing={2.5}>
        <FormTextField
          control={control}
          name="name"
          id="device-name"
          label="Identifiable name"
          required
          autoFocus
          hint="A name staff can read on the tablet, e.g. its label"
        />
        <FormTextField
          control={control}
          name="uuid"
          id="device-uuid"
          label="Universally unique identifier (UUID)"
          required
          disabled={masked}
          hint="The device ID the tablet app shows; saved in lower case"
          helperText={
            masked ? 'Only full-access admins see and change the UUID of an assigned device' : undefined
          }
          slotProps={{ htmlInput: { autoCapitalize: 'none', spellCheck: false } }}
        />
      </Stack>
    </FormDialog>
  );
}
