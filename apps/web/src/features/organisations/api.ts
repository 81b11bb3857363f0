import {
  apiRoutes,
  type CreateOrganisationBody,
  type CreateSiteBody,
  type UpdateOrganisationBody,
  type UpdateSiteBody,
} from '@pathway/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../lib/api';
import { organisationKeys, sessionKeys } from '../../lib/queryKeys';

function useRefreshOrganisations() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: organisationKeys.all }),
      // The session names the admin's organisation and sites (and so which selectors the console shows).
      queryClient.invalidateQueries({ queryKey: sessionKeys.all }),
    ]);
}

export function useCreateOrganisation() {
  const refresh = useRefreshOrganisations();
  return useMutation({
    mutationFn: (body: CreateOrganisationBody) => call(apiRoutes.organisations.create, { body }),
    onSuccess: refresh,
  });
}

export function useUpdateOrganisation(organisationId: number) {
  const refresh = useRefreshOrganisations();
  return useMutation({
    mutationFn: (body: UpdateOrganisationBody) =>
      call(apiRoutes.organisations.update, { params: { id: organisationId }, body }),
    onSuccess: refresh,
  });
}

export function useCreateSite(organisationId: number) {
  const refresh = useRefreshOrganisations();
  return useMutation({
    mutationFn: (body: CreateSiteBody) =>
      call(apiRoutes.organisations.createSite, { params: { id: organisationId }, body }),
    onSuccess: refresh,
  });
}

export function useUpdateSite(siteId: number) {
  const refresh = useRefreshOrganisations();
  return useMutation({
    mutationFn: (body: UpdateSiteBody) => call(apiRoutes.sites.update, { params: { id: siteId }, body }),
    onSuccess: refresh,
  });
}
