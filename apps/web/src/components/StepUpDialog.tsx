import Alert from '@mui/material/Alert';
import TextField from '@mui/material/TextField';
import { apiRoutes, messages, STEP_UP_MAX_AGE_MINUTES } from '@pathway/contract';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ApiError, call, setStepUpHandler } from '../lib/api';
import { FormDialog } from './form/FormDialog';

/**
 * Step-up (issue 32): a dangerous action (a full-access admin added or promoted, another admin
 * reset, participants deleted or destroyed, the whole list exported, the subject access download)
 * answered that this session must prove itself again. The person types their password and a new
 * authenticator code; the console then sends the same request once more (lib/api.ts). Cancel
 * leaves the action undone and the session as it was.
 */
export function StepUpHost() {
  const [open, setOpen] = useState(false);
  const resolver = useRef<((ok: boolean) => void) | null>(null);

  useEffect(() => {
    setStepUpHandler(
      () =>
        new Promise<boolean>((resolve) => {
          // A second request asking meanwhile waits for the same answer.
          const previous = resolver.current;
          resolver.current = (ok) => {
            previous?.(ok);
            resolve(ok);
          };
          setOpen(true);
        }),
    );
    return () => setStepUpHandler(null);
  }, []);

  function finish(ok: boolean) {
    setOpen(false);
    const resolve = resolver.current;
    resolver.current = null;
    resolve?.(ok);
  }

  return open ? <StepUpDialog onDone={() => finish(true)} onCancel={() => finish(false)} /> : null;
}

function StepUpDialog({ onDone, onCancel }: { onDone: () => void; onCancel: () => void }) {
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
