import { messages, type CreatedAdminUser, type SessionInfo, type Site } from '@pathway/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '../../test/render';
import { AddAdminDialog } from './AddAdminDialog';

const created: CreatedAdminUser = {
  admin_user_id: 12,
  user_name: 'grace.hopper@example.org',
  first_name: 'Grace',
  last_name: 'Hopper',
  role: 'basic access',
  created_at: '2025-03-04T10:00:00.000Z',
  organisation_id: 1,
  site_ids: [],
  system_administrator: false,
  qr_code: 'data:image/png;base64,iVBORw0KGgo=',
  otpauth_url:
    'otpauth://totp/Pathway:grace.hopper%40example.org?issuer=Pathway&secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
};

const site = (site_id: number, name: string): Site => ({
  site_id,
  organisation_id: 1,
  name,
  ods_code: null,
  created_at: '2025-03-04T10:00:00.000Z',
});
const oneSite = [site(1, 'Pathway programme')];

const session: SessionInfo = {
  admin_user_id: 1,
  user_name: 'alice.admin@example.org',
  first_name: 'Alice',
  last_name: 'Admin',
  role: 'full access',
  expires_at: '2030-01-01T12:00:00.000Z',
  organisation: { organisation_id: 1, name: 'Pathway programme', ods_code: null },
  sites: [{ site_id: 1, name: 'Pathway programme', ods_code: null }],
  site_ids: [],
  system_administrator: false,
  organisation_id: 1,
};

/** The server: the session, the organisation's sites, and the new admin for POST /api/admin. */
function setup(sites: Site[] = oneSite) {
  const fetchMock = vi.fn(async (url: string) => {
    if (url === '/api/session') return jsonResponse(200, session);
    if (url === '/api/organisations/1/sites') return jsonResponse(200, sites);
    return jsonResponse(201, created);
  });
  vi.stubGlobal('fetch', fetchMock);
  const user = userEvent.setup();
  renderWithProviders(<AddAdminDialog onClose={vi.fn()} />);
  const dialog = screen.getByRole('dialog', { name: 'Add admin user' });
  const adminCalls = () =>
    (fetchMock.mock.calls as unknown as [string, RequestInit][]).filter(([url]) => url === '/api/admin');
  return { fetchMock, adminCalls, user, dialog };
}

describe('AddAdminDialog', () => {
  it('says that username and password cannot be empty, and sends nothing', async () => {
    const { adminCalls, user, dialog } = setup();

    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await within(dialog).findByText(messages.admin.usernameEmpty)).toBeInTheDocument();
    expect(within(dialog).getByText(messages.admin.passwordEmpty)).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/^Username/)).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getByLabelText(/^Password/)).toHaveAttribute('aria-invalid', 'true');
    expect(adminCalls()).toHaveLength(0);
  });

  it('asks for at least 6 characters of username and 12 of password', async () => {
    const { adminCalls, user, dialog } = setup();

    await user.type(within(dialog).getByLabelText(/^Username/), 'grace');
    await user.type(within(dialog).getByLabelText(/^Password/), 'short');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await within(dialog).findByText(messages.admin.usernameShort)).toBeInTheDocument();
    expect(within(dialog).getByText(messages.admin.passwordShort)).toBeInTheDocument();
    expect(adminCalls()).toHaveLength(0);

    // Fixing a field clears its message as the user types.
    await user.type(within(dialog).getByLabelText(/^Username/), '.h');
    await waitFor(() =>
      expect(within(dialog).queryByText(messages.admin.usernameShort)).not.toBeInTheDocument(),
    );
    expect(within(dialog).getByText(messages.admin.passwordShort)).toBeInTheDocument();
  });

  it('adds a basic-access admin by default, then shows the QR code and the three steps without Save', async () => {
    const { adminCalls, user, dialog } = setup();
    expect(within(dialog).getByRole('combobox', { name: /Access level/ })).toHaveTextContent('Basic access');

    await user.type(within(dialog).getByLabelText(/^Username/), created.user_name);
    await user.type(within(dialog).getByLabelText(/^Password/), 'a long enough password');
    await user.type(within(dialog).getByLabelText(/^First name/), 'Grace');
    await user.type(within(dialog).getByLabelText(/^Last name/), 'Hopper');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    const qrCode = await within(dialog).findByRole('img', {
      name: `QR code that adds ${created.user_name} to an authenticator app`,
    });
    expect(qrCode).toHaveAttribute('src', created.qr_code);
    const [call] = adminCalls();
    const [, init] = call!;
    // One organisation with one site: no site, organisation or system-administrator field.
    expect(within(dialog).queryByLabelText(/^Sites/)).not.toBeInTheDocument();
    expect(JSON.parse(init.body as string)).toEqual({
      user_name: created.user_name,
      password: 'a long enough password',
      first_name: 'Grace',
      last_name: 'Hopper',
      role: 'basic access',
      site_ids: [],
      system_administrator: false,
    });
    const steps = within(dialog).getAllByRole('listitem');
    expect(steps).toHaveLength(3);
    expect(steps[0]).toHaveTextContent(/Install an authenticator app/);
    expect(steps[1]).toHaveTextContent(/Scan this QR code/);
    expect(steps[2]).toHaveTextContent(/Close this window after a successful scan/);
    // The key is shown in groups of four (each kept whole when the line wraps).
    expect(dialog.querySelector('code')).toHaveTextContent('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');
    expect(within(dialog).queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Close' })).toBeInTheDocument();
  });

  it("shows the server's message in a box labelled Warning!", async () => {
    const { user, dialog } = setup();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(409, { message: messages.admin.usernameTaken })),
    );

    await user.type(within(dialog).getByLabelText(/^Username/), created.user_name);
    await user.type(within(dialog).getByLabelText(/^Password/), 'a long enough password');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    const warning = await within(dialog).findByRole('alert');
    expect(warning).toHaveTextContent(messages.generic.warningTitle);
    expect(warning).toHaveTextContent(messages.admin.usernameTaken);
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeInTheDocument();
  });

  it('offers the sites when the organisation has more than one, and sends those chosen', async () => {
    const { adminCalls, user, dialog } = setup([site(1, 'Leeds General'), site(2, "St James's")]);

    const sites = await within(dialog).findByRole('combobox', { name: /^Sites/ });
    expect(sites).toHaveTextContent('Every site');
    expect(within(dialog).queryByLabelText(/System administrator/)).not.toBeInTheDocument();
    await user.click(sites);
    await user.click(await screen.findByRole('option', { name: "St James's" }));
    await user.keyboard('{Escape}');
    expect(sites).toHaveTextContent("St James's");
    await user.type(within(dialog).getByLabelText(/^Username/), created.user_name);
    await user.type(within(dialog).getByLabelText(/^Password/), 'a long enough password');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    await within(dialog).findByRole('img', { name: /QR code/ });
    const [call] = adminCalls();
    expect(JSON.parse(call![1].body as string)).toMatchObject({ site_ids: [2], system_administrator: false });
  });
});
