import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import DialogContentText from '@mui/material/DialogContentText';
import Stack from '@mui/material/Stack';
import { messages, resetPasswordBody, type AdminUser } from '@pathway/contract';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { FormDialog } from '../../components/form/FormDialog';
import { NewPasswordFields } from '../../components/form/NewPasswordFields';
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
  const { control, handleSubmit } = useForm({
    resolver: zodResolver(resetForm),
    defaultValues: { new_password: '', confirm_password: '' },
  });
  const save = handleSubmit(({ new_password }) => reset.mutate({ user_name: admin.user_name, new_password }));
  const done = reset.data;

  return (
    <FormDialog
      id="reset-password"
      title="Reset password"
      describedBy="reset-password-description"
      onClose={onClose}
      onSubmit={save}
      pending={reset.isPending}
      error={reset.error}
      done={Boolean(done)}
      submitLabel="Reset password"
      submitColor="error"
    >
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
            <NewPasswordFields control={control} idPrefix="reset-password" whose="the" autoFocus />
          </Stack>
        </>
      )}
    </FormDialog>
  );
}
