import { apiRoutes, type SessionInfo } from '@pathway/contract';
import { queryOptions } from '@tanstack/react-query';
import { call } from './api';
import { organisationKeys } from './queryKeys';
import { useSession } from './session';

// Organisations and their sites are read by several features (the Organisations page, the admin
// users' forms, a participant's site), which do not import each other.

/** A system administrator's every organisation; anyone else's own. */
export const organisationsQuery = queryOptions({
  queryKey: organisationKeys.list(),
  queryFn: ({ signal }) => call(apiRoutes.organisations.list, { signal }),
});

/** An organisation's sites. */
export const sitesQuery = (organisationId: number) =>
  queryOptions({
    queryKey: organisationKeys.sites(organisationId),
    queryFn: ({ signal }) => call(apiRoutes.organisations.sites, { params: { id: organisationId }, signal }),
  });

/**
 * The sites whose participants the signed-in admin sees (every site of their organisation, or
 * those they are limited to). A page shows a site selector, and a participant's site, only when
 * there is more than one: one organisation with one site stays as simple as before sites existed.
 */
export function useSessionSites(): SessionInfo['sites'] {
  return useSession()?.sites ?? NO_SITES;
}

const NO_SITES: SessionInfo['sites'] = [];

/** A site's name among those given, or its id when it is not one of them. */
export function siteName(sites: SessionInfo['sites'], siteId: number): string {
  return sites.find((site) => site.site_id === siteId)?.name ?? `Site ${siteId}`;
}
