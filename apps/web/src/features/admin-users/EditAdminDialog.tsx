import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { updateAdminBody, type AdminUser } from '@pathway/contract';
import { Controller, useForm } from 'react-hook-form';
import { WarningAlert } from '../../components/WarningAlert';
import { useUpdateAdmin } from './api';
import { RoleSelect } from './RoleChip';

/** Role and names of an admin user; the user name cannot change (spec §2). */
export function EditAdminDialog({ admin, onClose }: { admin: AdminUser; onClose: () => void }) {
  const update = useUpdateAdmin();
  const {
    control,
    handleSubmit,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(updateAdminBody),
    defaultValues: { first_name: admin.first_name, last_name: admin.last_name, role: admin.role },
  });

  const save = handleSubmit((body) =>
    update.mutate({ ...body, user_name: admin.user_name }, { onSuccess: onClose }),
  );

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="edit-admin-title">
      <DialogTitle id="edit-admin-title">Edit admin user</DialogTitle>
      <Box component="form" noValidate onSubmit={save}>
        <DialogContent dividers>
          {update.error && <WarningAlert message={update.error.message} />}
          <Stack spacing={2.5}>
            <Controller
              name="role"
              control={control}
              render={({ field }) => (
                <RoleSelect
                  {...field}
                  id="edit-admin-role"
                  error={Boolean(errors.role)}
                  helperText={errors.role?.message}
                />
              )}
            />
            <TextField id="edit-admin-user-name" label="Username" value={admin.user_name} disabled />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <Controller
                name="first_name"
                control={control}
                render={({ field }) => (
                  <TextField
                    {...field}
                    id="edit-admin-first-name"
                    label="First name"
                    autoComplete="off"
                    error={Boolean(errors.first_name)}
                    helperText={errors.first_name?.message}
                  />
                )}
              />
              <Controller
                name="last_name"
                control={control}
                render={({ field }) => (
                  <TextField
                    {...field}
                    id="edit-admin-last-name"
                    label="Last name"
                    autoComplete="off"
                    error={Boolean(errors.last_name)}
                    helperText={errors.last_name?.message}
                  />
                )}
              />
            </Stack>
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, py: 2 }}>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="contained" loading={update.isPending}>
            Save
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
