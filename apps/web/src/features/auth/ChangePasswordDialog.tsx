import { zodResolver } from '@hookform/resolvers/zod';
import DialogContentText from '@mui/material/DialogContentText';
import Stack from '@mui/material/Stack';
import { changePasswordBody, messages } from '@pathway/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { FormDialog } from '../../components/form/FormDialog';
import { FormTextField } from '../../components/form/FormTextField';
import { NewPasswordFields } from '../../components/form/NewPasswordFields';
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
  const { control, handleSubmit, setValue } = useForm({
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
    <FormDialog
      id="change-password"
      title="Change password"
      describedBy="change-password-description"
      onClose={onClose}
      onSubmit={save}
      pending={change.isPending}
      error={change.error}
      submitLabel="Change password"
    >
      <DialogContentText id="change-password-description" sx={{ color: 'text.primary', mb: 2.5 }}>
        Every session of yours ends when the password changes, this one included: you then sign in again with
        the new password.
      </DialogContentText>
      <Stack spacing={2.5}>
        <FormTextField
          control={control}
          name="current_password"
          id="change-password-current"
          label="Current password"
          type="password"
          required
          autoFocus
          autoComplete="current-password"
        />
        <NewPasswordFields control={control} idPrefix="change-password" whose="your" />
        <FormTextField
          control={control}
          name="mfa_token"
          id="change-password-mfa"
          label="MFA code"
          required
          autoComplete="one-time-code"
          hint="The 6-digit code shown in your authenticator app"
          slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 12 } }}
        />
      </Stack>
    </FormDialog>
  );
}
