import Alert from '@mui/material/Alert';
import TextField from '@mui/material/TextField';
import { apiRoutes, messages, STEP_UP_MAX_AGE_MINUTES } from '@pathway/contract';
import { useState, type FormEvent } from 'react';
import { ApiError, call } from '../lib/api';
import { FormDialog } from './form/FormDialog';

/** The step-up form (StepUpHost, which the signed-in layout shows, loads it when a request asks). */
export function StepUpDialog({ onDone, onCancel }: { onDone: () => void; onCancel: () => void }) {
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<Error | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!password) return setError(new Error(messages.admin.passwordEmpty));
    if (!code.trim()) return setError(new Error(messages.admin.mfaEmpty));
    setPending(true);
    try {
      await call(apiRoutes.auth.stepUp, { body: { password, mfa_token: code } });
      onDone();
    } catch (caught) {
      setError(caught instanceof ApiError ? caught : new Error(String(caught)));
      setCode('');
    } finally {
      setPending(false);
    }
  }

  return (
    <FormDialog
      id="step-up"
      title="Confirm it is you"
      onClose={onCancel}
      onSubmit={(event) => void submit(event)}
      pending={pending}
      error={error}
      submitLabel="Confirm and continue"
      maxWidth="xs"
      describedBy="step-up-description"
    >
      <Alert severity="info" id="step-up-description" sx={{ mb: 2 }}>
        {messages.stepUp.required} You will not be asked again for {STEP_UP_MAX_AGE_MINUTES} minutes.
      </Alert>
      <TextField
        label="Password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        fullWidth
        autoFocus
        required
        margin="normal"
      />
      <TextField
        label="Authenticator code"
        autoComplete="one-time-code"
        slotProps={{ htmlInput: { inputMode: 'numeric' } }}
        value={code}
        onChange={(e) => setCode(e.target.value)}
        fullWidth
        required
        margin="normal"
      />
    </FormDialog>
  );
}
