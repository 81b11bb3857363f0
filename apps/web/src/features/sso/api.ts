import { apiRoutes, type SsoConfigBody, type SsoTestResult } from '@pathway/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../lib/api';
import { ssoKeys } from '../../lib/queryKeys';

/** The organisation's single sign-on settings (never its secrets), and the addresses to register. */
export const ssoSettingsQuery = (organisationId: number) =>
  queryOptions({
    queryKey: ssoKeys.settings(organisationId),
    queryFn: ({ signal }) => call(apiRoutes.sso.get, { params: { id: organisationId }, signal }),
  });

export function useSaveSsoSettings(organisationId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SsoConfigBody) => call(apiRoutes.sso.update, { params: { id: organisationId }, body }),
    onSuccess: (saved) => queryClient.setQueryData(ssoKeys.settings(organisationId), saved),
  });
}

/** Test connection: the settings on the form (saved or not) against the provider's discovery document. */
export function useTestSsoConnection(organisationId: number) {
  return useMutation({
    mutationFn: (
      body: Pick<SsoConfigBody, 'issuer' | 'client_auth' | 'acr_values'>,
    ): Promise<SsoTestResult> => call(apiRoutes.sso.test, { params: { id: organisationId }, body }),
  });
}
