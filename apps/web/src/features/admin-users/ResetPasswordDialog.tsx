import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { limits, messages, resetPasswordBody, type AdminUser } from '@pathway/contract';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import { WarningAlert } from '../../components/WarningAlert';
import { useResetPassword } from './api';

/** The server's rule for the password, and the same password typed twice (a typo would lock them out). */
const resetForm = resetPasswordBody
  .extend({ confirm_password: z.string() })
  .refine((v) => v.new_password === v.confirm_password, {
    error: messages.admin.newPasswordsDiffer,
    path: ['confirm_password'],
  });

/**
 * Account recovery for someone who forgot their password (full access): a new one, which the
 * server checks against the password policy; their sessions end with it.
 */
export function ResetPasswordDialog({ admin, onClose }: { admin: AdminUser; onClose: () => void }) {
  const reset = useResetPassword();
  const {
    control,
    handleSubmit,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(resetForm),
    defaultValues: { new_password: '', confirm_password: '' },
  });
  const save = handleSubmit(({ new_password }) => reset.mutate({ user_name: admin.user_name, new_password }));
  const done = reset.data;

  return (
    <Dialog
      open
      onClose={onClose}
      fullWidth
      maxWidth="sm"
      aria-labelledby="reset-password-title"
      aria-describedby="reset-password-description"
    >
      <DialogTitle id="reset-password-title">Reset password</DialogTitle>
      <Box component="form" noValidate onSubmit={save}>
        <DialogContent dividers>
          {reset.error && <WarningAlert message={reset.error.message} />}
          {done ? (
            <Alert severity="success" role="status">
              {done.message}
            </Alert>
          ) : (
            <>
              <DialogContentText id="reset-password-description" sx={{ color: 'text.primary', mb: 2.5 }}>
                <strong>{admin.user_name}</strong>: {messages.admin.resetPasswordConfirm}
              </DialogContentText>
              <Stack spacing={2.5}>
                <Controller
                  name="new_password"
                  control={control}
                  render={({ field }) => (
                    <TextField
                      {...field}
                      id="reset-password-new"
                      label="New password"
                      type="password"
                      required
                      autoFocus
                      autoComplete="new-password"
                      error={Boolean(errors.new_password)}
                      helperText={
                        errors.new_password?.message ??
                        `At least ${limits.passwordMin} characters; not a common password or one with the username in it`
                      }
                    />
                  )}
                />
                <Controller
                  name="confirm_password"
                  control={control}
                  render={({ field }) => (
                    <TextField
                      {...field}
                      id="reset-password-confirm"
                      label="New password again"
                      type="password"
                      required
                      autoComplete="new-password"
                      error={Boolean(errors.confirm_password)}
                      helperText={errors.confirm_password?.message}
                    />
                  )}
                />
              </Stack>
            </>
          )}
        </DialogContent>
        <DialogActions sx={{ px: 3, py: 2 }}>
          <Button onClick={onClose} variant={done ? 'contained' : 'text'}>
            {done ? 'Close' : 'Cancel'}
          </Button>
          {!done && (
            <Button type="submit" color="error" variant="contained" loading={reset.isPending}>
              Reset password
            </Button>
          )}
        </DialogActions>
      </Box>
    </Dialog>
  );
}
