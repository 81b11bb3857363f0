import { apiRoutes } from '@pathway/contract';
import { queryOptions } from '@tanstack/react-query';
import { call } from './api';
import { organisationKeys } from './queryKeys';

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
