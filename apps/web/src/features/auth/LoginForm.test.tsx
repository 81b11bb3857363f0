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

async function fillIn(
  user: ReturnType<typeof userEvent.setup>,
  values: { user: string; password: string; code: string },
) {
  if (values.user) await user.type(screen.getByLabelText(/^Email address or user name/), values.user);
  if (values.password) await user.type(screen.getByLabelText(/^Password/), values.password);
  if (values.code) await user.type(screen.getByLabelText(/^MFA code/), values.code);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('LoginForm', () => {
  it('sends the trimmed user name, password and MFA code, and reports the session', async () => {
    const fetchMock = vi.fn(async () => jsonResponse(200, { message: 'Signed in', session }));
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
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
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
      vi.fn(async () => jsonResponse(401, { message: messages.login.failed })),
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
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
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
        vi.fn(async () => jsonResponse(status, { message })),
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
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    renderWithProviders(<LoginForm onSignedIn={vi.fn()} />);

    await fillIn(user, { user: 'alice.admin@example.org', password: '   ', code: '123456' });

    expect(await screen.findByText(messages.login.passwordEmpty)).toBeInTheDocument();
    expect(screen.getByLabelText(/^Password/)).toHaveAccessibleDescription(messages.login.passwordEmpty);
    expect(screen.getByLabelText(/^Password/)).toHaveFocus();
    expect(screen.queryByText(messages.login.userNameEmpty)).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
