import { zodResolver } from '@hookform/resolvers/zod';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { updateAdminBody, type AdminUser } from '@pathway/contract';
import { useForm } from 'react-hook-form';
import { FormDialog } from '../../components/form/FormDialog';
import { FormTextField } from '../../components/form/FormTextField';
import { useUpdateAdmin } from './api';
import { RoleSelect } from './RoleChip';

/** Role and names of an admin user; the user name cannot change (spec §2). */
export function EditAdminDialog({ admin, onClose }: { admin: AdminUser; onClose: () => void }) {
  const update = useUpdateAdmin();
  const { control, handleSubmit } = useForm({
    resolver: zodResolver(updateAdminBody),
    defaultValues: { first_name: admin.first_name, last_name: admin.last_name, role: admin.role },
  });

  const save = handleSubmit((body) =>
    update.mutate({ ...body, user_name: admin.user_name }, { onSuccess: onClose }),
  );

  return (
    <FormDialog
      id="edit-admin"
      title="Edit admin user"
      onClose={onClose}
      onSubmit={save}
      pending={update.isPending}
      error={update.error}
    >
      <Stack spacing={2.5}>
        <FormTextField control={control} name="role" as={RoleSelect} id="edit-admin-role" />
        <TextField id="edit-admin-user-name" label="Username" value={admin.user_name} disabled />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <FormTextField control={control} name="first_name" id="edit-admin-first-name" label="First name" />
          <FormTextField control={control} name="last_name" id="edit-admin-last-name" label="Last name" />
        </Stack>
      </Stack>
    </FormDialog>
  );
}
