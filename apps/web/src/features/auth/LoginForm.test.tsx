import { messages, type SessionInfo } from '@pathway/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '../../test/render';
import { LoginForm } from './LoginForm';

const session: SessionInfo = {
  admin_user_id: 7,
  user_name: 'alice.admin@example.org',
  first_name: 'Alice',
  last_name: 'Smith',
  role: 'full access',
  expires_at: '2030-01-01T12:00:00.000Z',
  organisation: { organisation_id: 1, name: 'Pathway programme', ods_code: null },
  sites: [{ site_id: 1, name: 'Pathway programme', ods_code: null }],
  site_ids: [],
  system_administrator: false,
};

/** The server: the email's domain has no provider (the lookup), and `login` answers the sign-in. */
function server(login: () => Promise<Response>) {
  return vi.fn(async (url: string) =>
    url.startsWith('/api/sso/lookup') ? jsonResponse(200, { single_sign_on: false }) : login(),
  );
}

async function fillIn(
  user: ReturnType<typeof userEvent.setup>,
  values: { user: string; password: string; code: string },
) {
  if (values.user) await user.type(screen.getByLabelText(/^Email address or user name/), values.user);
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  if (values.password) await user.type(await screen.findByLabelText(/^Password/), values.password);
  if (values.code) await user.type(screen.getByLabelText(/^MFA code/), values.code);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('LoginForm', () => {
  it('sends the trimmed user name, password and MFA code, and reports the session', async () => {
    const fetchMock = server(async () => jsonResponse(200, { message: 'Signed in', session }));
    vi.stubGlobal('fetch', fetchMock);
    const onSignedIn = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(<LoginForm onSignedIn={onSignedIn} />);

    await fillIn(user, {
      user: '  alice.admin@example.org ',
      password: ' correct horse  ',
      code: ' 123456 ',
    });

    await waitFor(() => expect(onSignedIn).toHaveBeenCalledWith(session));
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/sso/lookup?email=alice.admin%40example.org');
    const [url, init] = fetchMock.mock.calls[1] as unknown as [string, RequestInit];
    expect(url).toBe('/login');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('include');
    expect(JSON.parse(init.body as string)).toEqual({
      user_name: 'alice.admin@example.org',
      password: 'correct horse',
      mfa_token: '123456',
    });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows the banner of the spec when the server refuses, and clears the used code', async () => {
    vi.stubGlobal(
      'fetch',
      server(async () => jsonResponse(401, { message: messages.login.failed })),
    );
    const onSignedIn = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(<LoginForm onSignedIn={onSignedIn} />);

    await fillIn(user, { user: 'alice.admin@example.org', password: 'wrong password', code: '000000' });

    expect(await screen.findByRole('alert')).toHaveTextContent(messages.login.failed);
    expect(screen.getByLabelText(/^MFA code/)).toHaveValue('');
    expect(onSignedIn).not.toHaveBeenCalled();
  });

  it('shows the same banner when the server cannot be reached', async () => {
    vi.stubGlobal(
      'fetch',
      server(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    const user = userEvent.setup();
    renderWithProviders(<LoginForm onSignedIn={vi.fn()} />);

    await fillIn(user, { user: 'alice.admin@example.org', password: 'correct horse', code: '123456' });

    expect(await screen.findByRole('alert')).toHaveTextContent(messages.login.failed);
  });

  it("shows the server's own message when it refuses before looking at the credentials (429, 503)", async () => {
    const refusals: [number, string][] = [
      [429, messages.login.tooManyAttempts(42)],
      [503, messages.login.busy],
    ];
    for (const [status, message] of refusals) {
      vi.stubGlobal(
        'fetch',
        server(async () => jsonResponse(status, { message })),
      );
      const user = userEvent.setup();
      const { unmount } = renderWithProviders(<LoginForm onSignedIn={vi.fn()} />);

      await fillIn(user, { user: 'alice.admin@example.org', password: 'correct horse', code: '123456' });

      const banner = await screen.findByRole('alert');
      expect(banner).toHaveTextContent(message);
      expect(banner).not.toHaveTextContent(messages.login.failed);
      unmount();
    }
  });

  it('does not send a form with an empty field: the empty field says it is required', async () => {
    const fetchMock = server(async () => jsonResponse(500, {}));
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    renderWithProviders(<LoginForm onSignedIn={vi.fn()} />);

    await fillIn(user, { user: 'alice.admin@example.org', password: '   ', code: '123456' });

    expect(await screen.findByText(messages.login.passwordEmpty)).toBeInTheDocument();
    expect(screen.getByLabelText(/^Password/)).toHaveAccessibleDescription(messages.login.passwordEmpty);
    expect(screen.getByLabelText(/^Password/)).toHaveFocus();
    expect(screen.queryByText(messages.login.userNameEmpty)).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(fetchMock.mock.calls.filter(([url]) => url === '/login')).toEqual([]);
  });

  it('sends a work email whose domain signs in through its provider there, asking no password', async () => {
    const fetchMock = vi.fn(async () => jsonResponse(200, { single_sign_on: true }));
    vi.stubGlobal('fetch', fetchMock);
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign, search: '' });
    const user = userEvent.setup();
    renderWithProviders(<LoginForm onSignedIn={vi.fn()} />);

    await user.type(screen.getByLabelText(/^Email address or user name/), ' grace@trust.nhs.example ');
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith('/api/sso/start?email=grace%40trust.nhs.example'),
    );
    expect(screen.queryByLabelText(/^Password/)).not.toBeInTheDocument();
  });
});
