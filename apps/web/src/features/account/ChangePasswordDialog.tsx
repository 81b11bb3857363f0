import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { changePasswordBody, limits, messages } from '@pathway/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { WarningAlert } from '../../components/WarningAlert';
import type { SignInNotice } from '../../lib/session';
import { useChangeOwnPassword } from './api';

/** The server's rules, and the new password typed twice (a typo would lock its owner out). */
const changeForm = changePasswordBody
  .extend({ confirm_password: z.string() })
  .refine((v) => v.new_password === v.confirm_password, {
    error: messages.admin.newPasswordsDiffer,
    path: ['confirm_password'],
  });

/**
 * Any admin changes their own password, proving it is them with the current password and a fresh
 * code of their authenticator app. The server then ends every session of theirs, this one too,
 * so the console leaves for the sign-in page, which says why.
 */
export function ChangePasswordDialog({ onClose }: { onClose: () => void }) {
  const change = useChangeOwnPassword();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const {
    control,
    handleSubmit,
    setValue,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(changeForm),
    defaultValues: { current_password: '', new_password: '', confirm_password: '', mfa_token: '' },
  });

  // Every session has ended: leave the console as logout does, and say why on the sign-in page.
  const leaveConsole = async (notice: string) => {
    await navigate('/login', { replace: true, state: { notice } satisfies SignInNotice });
    queryClient.clear();
  };

  const save = handleSubmit(({ current_password, new_password, mfa_token }) =>
    change.mutate(
      { current_password, new_password, mfa_token },
      {
        onSuccess: ({ message }) => {
          void leaveConsole(message);
        },
        // A code works once: the next attempt needs the app's next one.
        onError: () => setValue('mfa_token', ''),
      },
    ),
  );

  return (
    <Dialog
      open
      onClose={onClose}
      fullWidth
      maxWidth="sm"
      aria-labelledby="change-password-title"
      aria-describedby="change-password-description"
    >
      <DialogTitle id="change-password-title">Change password</DialogTitle>
      <Box component="form" noValidate onSubmit={save}>
        <DialogContent dividers>
          {change.error && <WarningAlert message={change.error.message} />}
          <DialogContentText id="change-password-description" sx={{ color: 'text.primary', mb: 2.5 }}>
            Every session of yours ends when the password changes, this one included: you then sign in again
            with the new password.
          </DialogContentText>
          <Stack spacing={2.5}>
            <Controller
              name="current_password"
              control={control}
              render={({ field }) => (
                <TextField
                  {...field}
                  id="change-password-current"
                  label="Current password"
                  type="password"
                  required
                  autoFocus
                  autoComplete="current-password"
                  error={Boolean(errors.current_password)}
                  helperText={errors.current_password?.message}
                />
              )}
            />
            <Controller
              name="new_password"
              control={control}
              render={({ field }) => (
                <TextField
                  {...field}
                  id="change-password-new"
                  label="New password"
                  type="password"
                  required
                  autoComplete="new-password"
                  error={Boolean(errors.new_password)}
                  helperText={
                    errors.new_password?.message ??
                    `At least ${limits.passwordMin} characters; not a common password or one with your username in it`
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
                  id="change-password-confirm"
                  label="New password again"
                  type="password"
                  required
                  autoComplete="new-password"
                  error={Boolean(errors.confirm_password)}
                  helperText={errors.confirm_password?.message}
                />
              )}
            />
            <Controller
              name="mfa_token"
              control={control}
              render={({ field }) => (
                <TextField
                  {...field}
                  id="change-password-mfa"
                  label="MFA code"
                  required
                  autoComplete="one-time-code"
                  error={Boolean(errors.mfa_token)}
                  helperText={errors.mfa_token?.message ?? 'The 6-digit code shown in your authenticator app'}
                  slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 12 } }}
                />
              )}
            />
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, py: 2 }}>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="contained" loading={change.isPending}>
            Change password
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
