import type { AuthorisedDeviceView } from '@pathway/contract';
import { ConfirmDeleteDialog } from '../../components/ConfirmDeleteDialog';
import { useDeleteDevice } from './api';

/** Delete an unassigned device (spec §4); a refusal of the server is shown in a Warning box. */
export function DeleteDeviceDialog({
  device,
  onClose,
}: {
  device: AuthorisedDeviceView;
  onClose: () => void;
}) {
  const remove = useDeleteDevice();
  return (
    <ConfirmDeleteDialog
      id="delete-device"
      title="Delete mobile device"
      text={
        <>
          <strong>
            {device.name} ({device.uuid})
          </strong>{' '}
          will be deleted immediately and can no longer sign in. This cannot be undone.
        </>
      }
      error={remove.error}
      pending={remove.isPending}
      onConfirm={() => remove.mutate(device.authorized_device_id, { onSuccess: onClose })}
      onClose={onClose}
    />
  );
}
