import VisibilityIcon from '@mui/icons-material/Visibility';
import VisibilityOffIcon from '@mui/icons-material/VisibilityOff';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import { SSO_START_PATH, messages, type SessionInfo } from '@pathway/contract';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { isApiError } from '../../lib/api';
import { signIn, signsInWithProvider } from '../../lib/sessionRequests';
import { OutlinedField } from './OutlinedField';
import { useRequest } from './useRequest';

/**
 * The work email (or user name) first: a domain whose organisation signs in through its identity
 * provider goes there (the browser navigates to GET /api/sso/start), anyone else then gives the
 * password and the code of the authenticator app, as do break-glass accounts. Values are trimmed before sending;
 * a refusal of the credentials shows the one banner of spec §8, which says nothing about which
 * part was wrong. A refusal before they were looked at (too many attempts: 429, the server busy
 * with other sign-ins: 503) shows the server's own message, which says how long to wait.
 */
export function LoginForm({ onSignedIn }: { onSignedIn: (session: SessionInfo) => void }) {
  const [userName, setUserName] = useState('');
  const [password, setPassword] = useState('');
  const [mfaToken, setMfaToken] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  /** The email is asked first; the password and code once it is known not to go to a provider. */
  const [step, setStep] = useState<'email' | 'password'>('email');
  const [redirecting, setRedirecting] = useState(false);
  const passwordRef = useRef<HTMLInputElement>(null);
  /** The banner's text after a failed attempt. */
  const [failure, setFailure] = useState<string | null>(null);
  /** Set once Save found empty fields: each starred field then says whether it is still empty. */
  const [checked, setChecked] = useState(false);
  const mfaRef = useRef<HTMLInputElement>(null);

  const login = useRequest({
    mutationFn: signIn,
    onSuccess: (session) => onSignedIn(session),
    onError: (error) => {
      setFailure(isApiError(error, 429) || isApiError(error, 503) ? error.message : messages.login.failed);
      // A code works once: the next attempt needs the app's next one.
      setMfaToken('');
      mfaRef.current?.focus();
    },
  });

  const continueWithEmail = async () => {
    const email = userName.trim();
    if (!email) {
      setChecked(true);
      document.getElementById('user_name')?.focus();
      return;
    }
    setChecked(false);
    setFailure(null);
    setRedirecting(true);
    if (await signsInWithProvider(email)) {
      window.location.assign(`${SSO_START_PATH}?email=${encodeURIComponent(email)}`);
      return;
    }
    setRedirecting(false);
    setStep('password');
  };

  // The password field appears with the second step: it takes focus then.
  useEffect(() => {
    if (step === 'password') passwordRef.current?.focus();
  }, [step]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (step === 'email') {
      void continueWithEmail();
      return;
    }
    const credentials = { user_name: userName.trim(), password: password.trim(), mfa_token: mfaToken.trim() };
    if (!credentials.user_name || !credentials.password || !credentials.mfa_token) {
      // Nothing is sent: the empty fields say so themselves, and the first of them takes focus.
      setChecked(true);
      setFailure(null);
      const firstEmpty = !credentials.user_name
        ? 'user_name'
        : !credentials.password
          ? 'password'
          : 'mfa_token';
      document.getElementById(firstEmpty)?.focus();
      return;
    }
    setFailure(null);
    login.mutate(credentials);
  };

  return (
    <Stack component="form" noValidate onSubmit={submit} spacing={2.5} aria-label="Sign in">
      {failure && (
        <Alert severity="error" role="alert">
          {failure}
        </Alert>
      )}
      <OutlinedField
        id="user_name"
        name="user_name"
        label="Email address or user name"
        value={userName}
        onChange={(e) => setUserName(e.target.value)}
        autoComplete="username"
        required
        error={checked && !userName.trim()}
        helperText={checked && !userName.trim() ? messages.login.userNameEmpty : undefined}
        autoFocus
        inputProps={{ inputMode: 'email', autoCapitalize: 'none', spellCheck: false }}
      />
      {step === 'password' && (
        <>
          <OutlinedField
            id="password"
            inputRef={passwordRef}
            name="password"
            label="Password"
            type={showPassword ? 'text' : 'password'}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            autoComplete="current-password"
            required
            error={checked && !password.trim()}
            helperText={checked && !password.trim() ? messages.login.passwordEmpty : undefined}
            endAdornment={
              <InputAdornment position="end">
                <IconButton
                  aria-label={showPassword ? 'Hide password' : 'Show password'}
                  onClick={() => setShowPassword((shown) => !shown)}
                  edge="end"
                >
                  {showPassword ? <VisibilityOffIcon /> : <VisibilityIcon />}
                </IconButton>
              </InputAdornment>
            }
          />
          <OutlinedField
            id="mfa_token"
            name="mfa_token"
            label="MFA code"
            value={mfaToken}
            onChange={(e) => setMfaToken(e.target.value)}
            inputRef={mfaRef}
            autoComplete="one-time-code"
            required
            error={checked && !mfaToken.trim()}
            helperText={
              checked && !mfaToken.trim()
                ? messages.login.mfaEmpty
                : 'The 6-digit code shown in your authenticator app'
            }
            inputProps={{ inputMode: 'numeric', maxLength: 12 }}
          />
        </>
      )}
      <Button type="submit" variant="contained" size="large" loading={login.isPending || redirecting}>
        {step === 'email' ? 'Continue' : 'Sign in'}
      </Button>
      {step === 'email' && (
        <Button variant="text" onClick={() => setStep('password')}>
          Sign in with a password instead
        </Button>
      )}
    </Stack>
  );
}
