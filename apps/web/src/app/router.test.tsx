import type { AdminUser, SessionInfo } from '@pathway/contract';
import { messages } from '@pathway/contract';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { dashboardKeys, sessionKeys } from '../lib/queryKeys';
import { jsonResponse } from '../test/render';
import { sessionOf } from '../test/sessions';
import { leaveForSignIn } from './leaveForSignIn';
import { AppProviders } from './providers';
import { createQueryClient } from './queryClient';
import { appRoutes } from './router';

const admins: AdminUser[] = [
  {
    admin_user_id: 1,
    user_name: 'alice.admin',
    first_name: 'Alice',
    last_name: 'Smith',
    role: 'full access',
    created_at: '2025-03-04T10:00:00.000Z',
    organisation_id: 1,
    site_ids: [],
    system_administrator: true,
  },
  {
    admin_user_id: 2,
    user_name: 'bob.basic',
    first_name: 'Bob',
    last_name: 'Jones',
    role: 'basic access',
    created_at: '2025-12-31T23:00:00.000Z',
    organisation_id: 1,
    site_ids: [],
    system_administrator: false,
  },
];

/**
 * The console at `path`, put together as startConsole does, against a server whose session is
 * `session` (null: nobody signed in). `server.signedIn` changes it; while `server.sessionHeld` is
 * set, the session check waits for that promise before it answers.
 */
function renderConsole(
  path: string,
  session: SessionInfo | null,
  firstSession?: Promise<SessionInfo | null>,
) {
  const server: { signedIn: SessionInfo | null; sessionHeld?: Promise<void> } = { signedIn: session };
  const unauthorized = () => jsonResponse(401, { message: messages.session.required });
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    if (url === '/api/session') {
      await server.sessionHeld;
      return server.signedIn ? jsonResponse(200, server.signedIn) : unauthorized();
    }
    if (!server.signedIn) return unauthorized();
    if (url === '/logout' && init?.method === 'POST') {
      server.signedIn = null;
      return jsonResponse(200, { message: 'Signed out' });
    }
    if (url === '/api/admin') return jsonResponse(200, admins);
    return jsonResponse(404, { message: messages.generic.notFound });
  });
  vi.stubGlobal('fetch', fetchMock);
  const queryClient = createQueryClient({ onSessionEnded: () => leaveForSignIn(router, queryClient) });
  const router = createMemoryRouter(appRoutes(queryClient, firstSession), { initialEntries: [path] });
  render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { router, fetchMock, queryClient, server };
}

describe('console routes', () => {
  it('sends a visitor without a session to sign in', async () => {
    const { router } = renderConsole('/adminusers', null);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Sign in with credentials' }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('opens the dashboard from / when signed in', async () => {
    const { router } = renderConsole('/', sessionOf('basic access'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('tells a basic-access admin that Admin Users is not for them, without asking for the list', async () => {
    const { fetchMock } = renderConsole('/adminusers', sessionOf('basic access'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Not allowed' })).toBeInTheDocument();
    expect(screen.getByText(new RegExp(messages.session.forbidden))).toBeInTheDocument();
    expect(fetchMock.mock.calls.map(([url]) => url)).not.toContain('/api/admin');
  });

  it('shows the admin users to a full-access admin, with badges and DD/MM/YYYY dates', async () => {
    renderConsole('/adminusers', sessionOf('full access'));
    const table = await screen.findByRole('table', { name: 'Admin users' });
    const rows = await within(table).findAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(rows[1]).toHaveTextContent('alice.admin');
    expect(within(rows[1]!).getByText('Full access').closest('.MuiChip-root')).toHaveClass(
      'MuiChip-colorError',
    );
    expect(within(rows[2]!).getByText('Basic access').closest('.MuiChip-root')).toHaveClass(
      'MuiChip-colorSuccess',
    );
    expect(rows[1]).toHaveTextContent('04/03/2025');
  });

  it('logs out, forgets what it held, and does not show the console again on Back', async () => {
    const { router, queryClient } = renderConsole('/dashboard', sessionOf('full access'));
    await screen.findByRole('heading', { level: 1, name: 'Dashboard' });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Exit' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Logout' }));

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Sign in with credentials' }),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(
        queryClient
          .getQueryCache()
          .getAll()
          .filter((q) => q.state.data != null),
      ).toEqual([]),
    );

    await router.navigate(-1);
    expect(router.state.location.pathname).toBe('/login');
    expect(screen.queryByRole('button', { name: 'Exit' })).not.toBeInTheDocument();
  });

  it('takes the user to sign in when the session ends while a page is open', async () => {
    const { router, server, queryClient } = renderConsole('/dashboard', sessionOf('basic access'));
    await screen.findByRole('heading', { level: 1, name: 'Dashboard' });
    // Another tab logs out; this one's next check of the session (on window focus) finds none.
    server.signedIn = null;
    await queryClient.refetchQueries({ queryKey: sessionKeys.all });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Sign in with credentials' }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(screen.queryByRole('button', { name: 'Exit' })).not.toBeInTheDocument();
  });

  it('keeps the notice of a navigation to sign in when a call answers 401 before it has arrived', async () => {
    const { router, server, queryClient } = renderConsole('/dashboard', sessionOf('basic access'));
    await screen.findByRole('heading', { level: 1, name: 'Dashboard' });
    // A password change ends every session and leaves for /login with a notice (as
    // ChangePasswordDialog does). The /login route checks the session first; meanwhile the
    // dashboard's own poll answers 401.
    let answerSessionCheck = () => {};
    server.sessionHeld = new Promise((resolve) => (answerSessionCheck = resolve));
    server.signedIn = null;
    const notice = messages.admin.passwordChanged;
    const leaving = router.navigate('/login', { replace: true, state: { notice } });
    await waitFor(() => expect(router.state.navigation.location?.pathname).toBe('/login'));
    await queryClient.refetchQueries({ queryKey: dashboardKeys.all });
    expect(queryClient.getQueryState(dashboardKeys.all)?.status).toBe('error');

    answerSessionCheck();
    await leaving;
    expect(await screen.findByRole('status')).toHaveTextContent(notice);
    expect(router.state.location).toMatchObject({ pathname: '/login', state: { notice } });
  });

  it('takes the session the entry asked for as its first check, and asks the server on every navigation after', async () => {
    const session = sessionOf('full access');
    const { router, fetchMock } = renderConsole('/adminusers', session, Promise.resolve(session));
    expect(await screen.findByRole('table', { name: 'Admin users' })).toBeInTheDocument();
    const sessionChecks = () => fetchMock.mock.calls.filter(([url]) => url === '/api/session').length;
    expect(sessionChecks()).toBe(0);

    await router.navigate('/dashboard');
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
    expect(sessionChecks()).toBe(1);
  });

  it('sends a visitor to sign in when the session the entry asked for is none', async () => {
    const { router } = renderConsole('/dashboard', null, Promise.resolve(null));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Sign in with credentials' }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('goes to sign in, not to an error page, when the session check on its way is cancelled', async () => {
    // A menu entry pressed after the session ended elsewhere: the page's data fetched ahead answers
    // 401 while the route's session check is on its way, and the console clears what it held, which
    // cancels that check.
    const { router, queryClient, server } = renderConsole('/dashboard', sessionOf('full access'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
    server.signedIn = null;
    let answerSessionCheck = () => {};
    server.sessionHeld = new Promise((resolve) => (answerSessionCheck = resolve));
    const navigating = router.navigate('/adminusers');
    await waitFor(() => expect(queryClient.isFetching({ queryKey: sessionKeys.all })).toBe(1));
    queryClient.clear();
    answerSessionCheck();
    await navigating;
    // The navigation ended without an error (the error page), then went on to sign in.
    expect(router.state.errors).toBeNull();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Sign in with credentials' }),
    ).toBeInTheDocument();
  });
});
