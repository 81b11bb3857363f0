import Chip from '@mui/material/Chip';
import TableCell from '@mui/material/TableCell';
import type { AdminUser } from '@pathway/contract';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { organisationsQuery, sitesQuery } from '../../lib/organisations';
import { useSession } from '../../lib/session';

/**
 * The Admin Users table's organisation and sites: who each admin works for and whose participants
 * they see. Shown only when there is a choice to read: a system administrator's table spans more
 * than one organisation (Organisation), or an organisation listed has more than one site (Sites).
 * One organisation with one site keeps the table as it was before organisations existed.
 */
export function useAdminScopeColumns(admins: readonly AdminUser[] | undefined) {
  const session = useSession();
  const systemAdministrator = session?.system_administrator ?? false;
  const organisations = useQuery({ ...organisationsQuery, enabled: systemAdministrator });
  const ownOrganisationId = session?.organisation.organisation_id;
  // The organisations whose admins are listed: the session's own, and any other a system
  // administrator's table shows.
  const organisationIds = useMemo(() => {
    const ids = new Set<number>(ownOrganisationId === undefined ? [] : [ownOrganisationId]);
    for (const admin of admins ?? []) ids.add(admin.organisation_id);
    return [...ids].sort((a, b) => a - b);
  }, [admins, ownOrganisationId]);
  const sites = useQueries({ queries: organisationIds.map((id) => sitesQuery(id)) });

  const organisationNames = new Map(
    (organisations.data ?? []).map((organisation) => [organisation.organisation_id, organisation.name]),
  );
  const siteNames = new Map<number, string>();
  let manySites = false;
  for (const answer of sites) {
    for (const site of answer.data ?? []) siteNames.set(site.site_id, site.name);
    if ((answer.data?.length ?? 0) > 1) manySites = true;
  }
  const showOrganisation = systemAdministrator && (organisations.data?.length ?? 0) > 1;
  const showSites = manySites;

  return {
    headings: [...(showOrganisation ? ['Organisation'] : []), ...(showSites ? ['Sites'] : [])],
    /** Whether to mark system administrators: only once organisations or sites exist to manage. */
    markSystemAdministrators: showOrganisation || showSites,
    cells: (admin: AdminUser) => (
      <>
        {showOrganisation && (
          <TableCell>
            {organisationNames.get(admin.organisation_id) ?? `Organisation ${admin.organisation_id}`}
          </TableCell>
        )}
        {showSites && (
          <TableCell sx={{ minWidth: 140 }}>
            {admin.site_ids.length === 0
              ? 'Every site'
              : admin.site_ids.map((id) => siteNames.get(id) ?? `Site ${id}`).join(', ')}
          </TableCell>
        )}
      </>
    ),
  };
}

/** Beside the access level: this admin runs the instance (organisations, sites, their admins, logs). */
export function SystemAdministratorChip() {
  return <Chip size="small" variant="outlined" label="System administrator" sx={{ ml: 0.5 }} />;
}
