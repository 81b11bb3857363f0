import Alert from '@mui/material/Alert';
import TextField from '@mui/material/TextField';
import { apiRoutes, messages, SSO_STEP_UP_CHANNEL, STEP_UP_MAX_AGE_MINUTES } from '@pathway/contract';
import { useEffect, useState, type FormEvent } from 'react';
import { ApiError, call } from '../lib/api';
import { useSession } from '../lib/session';
import { FormDialog } from './form/FormDialog';

interface StepUpProps {
  onDone: () => void;
  onCancel: () => void;
}

/**
 * The step-up form (StepUpHost, which the signed-in layout shows, loads it when a request asks):
 * password and a new code, or, for a session that signed in through the organisation's identity
 * provider, a sign-in there again.
 */
export function StepUpDialog(props: StepUpProps) {
  return useSession()?.single_sign_on ? <ProviderStepUp {...props} /> : <PasswordStepUp {...props} />;
}

/**
 * Step-up through the identity provider: it opens in a window of its own (the console keeps the
 * action waiting here), asks the person to sign in again (prompt=login), and its last page
 * (/sso/step-up-done) tells this window the result on a broadcast channel.
 */
function ProviderStepUp({ onDone, onCancel }: StepUpProps) {
  const [error, setError] = useState<Error | null>(null);
  const [waiting, setWaiting] = useState(false);

  useEffect(() => {
    const channel = new BroadcastChannel(SSO_STEP_UP_CHANNEL);
    channel.onmessage = (event: MessageEvent<{ ok?: boolean; message?: string }>) => {
      if (event.data.ok) return onDone();
      setWaiting(false);
      setError(new Error(event.data.message ?? messages.stepUp.required));
    };
    return () => channel.close();
  }, [onDone]);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    setWaiting(true);
    window.open(apiRoutes.sso.stepUp.path, 'pathway-step-up', 'popup,width=560,height=720');
  }

  return (
    <FormDialog
      id="step-up"
      title="Confirm it is you"
      onClose={onCancel}
      onSubmit={submit}
      pending={waiting}
      error={error}
      submitLabel="Sign in again with your organisation"
      maxWidth="xs"
      describedBy="step-up-description"
    >
      <Alert severity="info" id="step-up-description">
        For your security, sign in again with your organisation&apos;s account (a window opens for it). You
        will not be asked again for {STEP_UP_MAX_AGE_MINUTES} minutes.
      </Alert>
    </FormDialog>
  );
}

function PasswordStepUp({ onDone, onCancel }: StepUpProps) {
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
