import { messages, type AdminUser } from '@pathway/contract';
import { ConfirmDeleteDialog } from '../../components/ConfirmDeleteDialog';
import { useDeleteAdmin } from './api';

export function DeleteAdminDialog({ admin, onClose }: { admin: AdminUser; onClose: () => void }) {
  const remove = useDeleteAdmin();
  const name = [admin.first_name, admin.last_name].filter(Boolean).join(' ');
  return (
    <ConfirmDeleteDialog
      id="delete-admin"
      title="Delete admin user"
      text={
        <>
          <strong>{admin.user_name}</strong>
          {name && ` (${name})`}: {messages.admin.deleteConfirm}
        </>
      }
      error={remove.error}
      pending={remove.isPending}
      onConfirm={() => remove.mutate(admin.user_name, { onSuccess: onClose })}
      onClose={onClose}
    />
  );
}
