import { useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router';
import { SESSION_KEY, type SignInNotice } from '../../lib/session';
import { LoginPage } from './LoginPage';

/**
 * /login inside the running console (after logout, a password change, or when the session
 * ended): shows the notice it was sent with, and goes on to the dashboard after signing in.
 */
export function LoginRoute() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const notice = (useLocation().state as Partial<SignInNotice> | null)?.notice;
  return (
    <LoginPage
      notice={notice}
      onSignedIn={(session) => {
        queryClient.setQueryData(SESSION_KEY, session);
        void navigate('/dashboard', { replace: true });
      }}
    />
  );
}
