import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages, type SessionInfo, type SsoConfig } from '@pathway/contract';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '../../test/render';
import { SsoSettingsPage } from './SsoSettingsPage';

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

const stored: SsoConfig = {
  organisation_id: 1,
  configured: true,
  issuer: 'https://idp.trust.example',
  client_id: 'pathway',
  client_secret_set: true,
  client_auth: 'client_secret_basic',
  email_domains: ['trust.nhs.example'],
  role_claim: 'roles',
  role_map: { lead: 'full access' },
  site_claim: null,
  jit: false,
  acr_values: null,
  scopes: null,
  required: false,
  break_glass: [],
  redirect_uri: 'https://pathway.example/api/sso/callback',
  backchannel_logout_uri: 'https://pathway.example/api/sso/backchannel-logout',
  post_logout_redirect_uri: 'https://pathway.example/login',
  jwks_uri: 'https://pathway.example/api/sso/jwks.json',
};

/** The server: the session, the stored settings, and PUT answering what it was sent. */
function server() {
  return vi.fn(async (url: string, init?: RequestInit) => {
    if (url === '/api/session') return jsonResponse(200, session);
    if (url === '/api/organisations/1/sso' && init?.method === 'PUT')
      return jsonResponse(200, { ...stored, ...(JSON.parse(init.body as string) as object) });
    if (url === '/api/organisations/1/sso') return jsonResponse(200, stored);
    return jsonResponse(404, { message: 'Not found' });
  });
}

describe('SsoSettingsPage', () => {
  it('sends the whole configuration: lists from lines, the role map from its rows, a blank secret left out', async () => {
    const fetchMock = server();
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    renderWithProviders(<SsoSettingsPage />);

    expect(await screen.findByLabelText(/^Client ID/)).toHaveValue('pathway');
    expect(screen.getByText(stored.redirect_uri)).toBeInTheDocument();
    await user.type(screen.getByLabelText('Email domains'), '\nnhs.net');
    await user.click(screen.getByRole('button', { name: 'Add a claim value' }));
    await user.type(screen.getByLabelText('Claim value 2'), 'clinician');
    await user.click(screen.getByRole('switch', { name: /Require single sign-on/ }));
    await user.type(screen.getByLabelText('Break-glass accounts'), 'alice.admin@example.org');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText(messages.sso.saved)).toBeInTheDocument();
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT')!;
    expect(JSON.parse(put[1]!.body as string)).toEqual({
      issuer: 'https://idp.trust.example',
      client_id: 'pathway',
      client_auth: 'client_secret_basic',
      email_domains: ['trust.nhs.example', 'nhs.net'],
      role_claim: 'roles',
      // A new row gives full access until another is chosen.
      role_map: { lead: 'full access', clinician: 'full access' },
      site_claim: null,
      scopes: null,
      acr_values: null,
      jit: false,
      required: true,
      break_glass: ['alice.admin@example.org'],
    });
  });
});
