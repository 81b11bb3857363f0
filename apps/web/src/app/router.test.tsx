import type { AdminUser, SessionInfo } from '@pathway/contract';
import { messages } from '@pathway/contract';
import { QueryClient } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../test/render';
import { AppProviders } from './providers';
import { appRoutes } from './router';

function sessionOf(role: SessionInfo['role']): SessionInfo {
  return {
    admin_user_id: 1,
    user_name: 'alice.admin',
    first_name: 'Alice',
    last_name: 'Smith',
    role,
    expires_at: '2030-01-01T00:00:00.000Z',
  };
}

const admins: AdminUser[] = [
  {
    admin_user_id: 1,
    user_name: 'alice.admin',
    first_name: 'Alice',
    last_name: 'Smith',
    role: 'full access',
    created_at: '2025-03-04T10:00:00.000Z',
  },
  {
    admin_user_id: 2,
    user_name: 'bob.basic',
    first_name: 'Bob',
    last_name: 'Jones',
    role: 'basic access',
    created_at: '2025-12-31T23:00:00.000Z',
  },
];

/** The console at `path`, against a server whose session is `session` (null: nobody signed in). */
function renderConsole(path: string, session: SessionInfo | null) {
  let signedIn = session;
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    if (url === '/api/session')
      return signedIn
        ? jsonResponse(200, signedIn)
        : jsonResponse(401, { message: messages.session.required });
    if (url === '/logout' && init?.method === 'POST') {
      signedIn = null;
      return jsonResponse(200, { message: 'Signed out' });
    }
    if (url === '/api/admin') return jsonResponse(200, admins);
    return jsonResponse(404, { message: messages.generic.notFound });
  });
  vi.stubGlobal('fetch', fetchMock);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(appRoutes(queryClient), { initialEntries: [path] });
  render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { router, fetchMock, queryClient };
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
});
