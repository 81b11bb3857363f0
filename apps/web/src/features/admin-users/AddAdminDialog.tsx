import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { BASIC_ACCESS, createAdminBody, limits, type CreatedAdminUser } from '@pathway/contract';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { WarningAlert } from '../../components/WarningAlert';
import { useCreateAdmin } from './api';
import { AuthenticatorSetup } from './AuthenticatorSetup';
import { RoleSelect } from './RoleChip';

/**
 * Adds an admin user (spec §2, §5). On success the QR code for their authenticator app is shown
 * in place of the form, and only Close remains: the code is never shown again.
 */
export function AddAdminDialog({ onClose }: { onClose: () => void }) {
  const create = useCreateAdmin();
  const [created, setCreated] = useState<CreatedAdminUser | null>(null);
  const {
    control,
    handleSubmit,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(createAdminBody),
    defaultValues: { user_name: '', password: '', first_name: '', last_name: '', role: BASIC_ACCESS },
  });

  const save = handleSubmit((body) => create.mutate(body, { onSuccess: setCreated }));

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="add-admin-title">
      <DialogTitle id="add-admin-title">Add admin user</DialogTitle>
      <Box component="form" noValidate onSubmit={save}>
        <DialogContent dividers>
          {create.error && <WarningAlert message={create.error.message} />}
          {created ? (
            <AuthenticatorSetup admin={created} />
          ) : (
            <Stack spacing={2.5}>
              <Controller
                name="user_name"
                control={control}
                render={({ field }) => (
                  <TextField
                    {...field}
                    id="add-admin-user-name"
                    label="Username"
                    required
                    autoFocus
                    autoComplete="off"
                    error={Boolean(errors.user_name)}
                    helperText={
                      errors.user_name?.message ?? 'An email address, or a name of at least 6 characters'
                    }
                    slotProps={{ htmlInput: { autoCapitalize: 'none', spellCheck: false } }}
                  />
                )}
              />
              <Controller
                name="password"
                control={control}
                render={({ field }) => (
                  <TextField
                    {...field}
                    id="add-admin-password"
                    label="Password"
                    type="password"
                    required
                    autoComplete="new-password"
                    error={Boolean(errors.password)}
                    helperText={
                      errors.password?.message ??
                      `At least ${limits.passwordMin} characters; not a common password or one with the username in it`
                    }
                  />
                )}
              />
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                <Controller
                  name="first_name"
                  control={control}
                  render={({ field }) => (
                    <TextField
                      {...field}
                      id="add-admin-first-name"
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
                      id="add-admin-last-name"
                      label="Last name"
                      autoComplete="off"
                      error={Boolean(errors.last_name)}
                      helperText={errors.last_name?.message}
                    />
                  )}
                />
              </Stack>
              <Controller
                name="role"
                control={control}
                render={({ field }) => (
                  <RoleSelect
                    {...field}
                    id="add-admin-role"
                    error={Boolean(errors.role)}
                    helperText={
                      errors.role?.message ?? 'Full access can see identifiable data and manage admin users'
                    }
                  />
                )}
              />
            </Stack>
          )}
        </DialogContent>
        <DialogActions sx={{ px: 3, py: 2 }}>
          <Button onClick={onClose} variant={created ? 'contained' : 'text'}>
            {created ? 'Close' : 'Cancel'}
          </Button>
          {!created && (
            <Button type="submit" variant="contained" loading={create.isPending}>
              Save
            </Button>
          )}
        </DialogActions>
      </Box>
    </Dialog>
  );
}
