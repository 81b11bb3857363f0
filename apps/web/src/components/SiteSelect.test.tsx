import type { SessionInfo } from '@pathway/contract';
import { QueryClient } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AppProviders } from '../app/providers';
import { SESSION_KEY } from '../lib/session';
import { useSiteFilter } from '../lib/siteFilter';
import { SiteFilterNotice, SiteSelect } from './SiteSelect';

const site = (site_id: number, name: string) => ({ site_id, name, ods_code: null });

function sessionWith(sites: SessionInfo['sites']): SessionInfo {
  return {
    admin_user_id: 1,
    user_name: 'lead@example.org',
    first_name: 'Programme',
    last_name: 'Lead',
    role: 'full access',
    expires_at: '2026-11-27T12:00:00.000Z',
    organisation: { organisation_id: 1, name: 'Northern Trust', ods_code: 'RX1' },
    sites,
    site_ids: [],
    system_administrator: false,
  };
}

/** A page with the selector, the notice and the address it keeps. */
function Page() {
  const filter = useSiteFilter();
  const location = useLocation();
  return (
    <>
      <SiteSelect filter={filter} />
      <SiteFilterNotice filter={filter} unseen="the rest are not shown" />
      <output aria-label="address">{`${location.search}${location.hash}`}</output>
    </>
  );
}

function renderAt(address: string, sites: SessionInfo['sites']) {
  const queryClient = new QueryClient();
  queryClient.setQueryData(SESSION_KEY, sessionWith(sites));
  return render(
    <AppProviders queryClient={queryClient}>
      <MemoryRouter initialEntries={[address]}>
        <Page />
      </MemoryRouter>
    </AppProviders>,
  );
}

describe('SiteSelect', () => {
  it('shows nothing to an admin of one site, whatever the address says', () => {
    renderAt('/participants?site=4', [site(4, 'Leeds')]);
    expect(screen.queryByRole('combobox')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByText(/Showing/)).not.toBeInTheDocument();
  });

  it('chooses one of the sites into the address, keeping its other filters, and back to every site', async () => {
    const user = userEvent.setup();
    renderAt('/participants?status=all#behind', [site(4, 'Leeds'), site(9, 'York')]);
    const select = screen.getByRole('combobox', { name: /^Site/ });
    expect(select).toHaveTextContent('Every site');
    expect(screen.getByText('Every site you work at')).toBeInTheDocument();

    await user.click(select);
    await user.click(screen.getByRole('option', { name: 'York' }));
    expect(screen.getByRole('combobox', { name: /^Site/ })).toHaveTextContent('York');
    expect(screen.getByLabelText('address')).toHaveTextContent('?status=all&site=9#behind');
    expect(screen.getByText('Showing York only: the rest are not shown.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Show every site' }));
    expect(screen.getByLabelText('address')).toHaveTextContent('?status=all#behind');
    expect(screen.getByRole('combobox', { name: /^Site/ })).toHaveTextContent('Every site');
  });

  it('reads a site the admin does not see, or no site id, as every site', () => {
    renderAt('/participants?site=12', [site(4, 'Leeds'), site(9, 'York')]);
    expect(screen.getByRole('combobox', { name: /^Site/ })).toHaveTextContent('Every site');
  });
});
