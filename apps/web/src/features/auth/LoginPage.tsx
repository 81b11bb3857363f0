import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { ssoRefusalMessage, type SessionInfo } from '@pathway/contract';
import { useEffect, useState } from 'react';
import { Logo } from '../../components/Logo';
import { SiteFooter } from '../../components/SiteFooter';
import { LoginForm } from './LoginForm';

/**
 * The sign-in page. It needs neither the router nor the query cache, so that the entry can show
 * it on its own (main.tsx). `onSignedIn` says where a signed-in admin goes (LoginRoute inside the
 * console, the entry otherwise); `notice` is a sentence shown above the form, such as why the
 * session ended (lib/session.ts's SignInNotice).
 */
export function LoginPage({
  onSignedIn,
  notice,
}: {
  onSignedIn: (session: SessionInfo) => void;
  notice?: string;
}) {
  useEffect(() => {
    document.title = 'Sign in - Pathway';
  }, []);
  // A single sign-on that was refused comes back here with its reason's code (never a text).
  const [ssoRefusal] = useState(() =>
    ssoRefusalMessage(new URLSearchParams(window.location.search).get('sso')),
  );

  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <Box
        component="header"
        sx={{ bgcolor: 'primary.main', color: 'primary.contrastText', px: { xs: 2, sm: 4 }, py: 1.5 }}
      >
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, maxWidth: 1100, mx: 'auto' }}>
          <Logo size={44} alt="Pathway logo" onDark />
          <Box>
            <Typography component="p" sx={{ fontWeight: 700, fontSize: '1.375rem', lineHeight: 1.2 }}>
              Pathway
            </Typography>
            <Typography component="p" variant="body2">
              Exercise programme back office
            </Typography>
          </Box>
        </Box>
      </Box>
      <Box
        component="main"
        sx={{
          flexGrow: 1,
          display: 'flex',
          justifyContent: 'center',
          alignItems: 'flex-start',
          px: 2,
          py: { xs: 4, sm: 8 },
        }}
      >
        <Paper variant="outlined" sx={{ width: '100%', maxWidth: 440, p: { xs: 3, sm: 4 } }}>
          <Typography variant="h1" sx={{ mb: 1 }}>
            Sign in with credentials
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 3 }}>
            Enter your work email. If your organisation signs in with its own account system (such as NHS CIS2
            or Microsoft), you continue there; otherwise use your password and the code from your
            authenticator app.
          </Typography>
          {ssoRefusal && (
            <Alert severity="error" role="alert" sx={{ mb: 2.5 }}>
              {ssoRefusal}
            </Alert>
          )}
          {typeof notice === 'string' && (
            <Alert severity="success" role="status" sx={{ mb: 2.5 }}>
              {notice}
            </Alert>
          )}
          <LoginForm onSignedIn={onSignedIn} />
        </Paper>
      </Box>
      <SiteFooter />
    </Box>
  );
}
