import { apiRoutes, type CreateAdminBody, type UpdateAdminBody } from '@pathway/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../lib/api';
import { adminKeys, sessionKeys } from '../../lib/queryKeys';

export const adminUsersQuery = queryOptions({
  queryKey: adminKeys.all,
  queryFn: () => call(apiRoutes.admins.list),
});

function useRefreshAdmins() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: adminKeys.all }),
      // Changing one's own names or role changes the session shown in the console.
      queryClient.invalidateQueries({ queryKey: sessionKeys.all }),
    ]);
}

export function useCreateAdmin() {
  const refresh = useRefreshAdmins();
  return useMutation({
    mutationFn: (body: CreateAdminBody) => call(apiRoutes.admins.create, { body }),
    onSuccess: refresh,
  });
}

export function useUpdateAdmin() {
  const refresh = useRefreshAdmins();
  return useMutation({
    mutationFn: ({ user_name, ...body }: UpdateAdminBody & { user_name: string }) =>
      call(apiRoutes.admins.update, { params: { user_name }, body: { ...body, user_name } }),
    onSuccess: refresh,
  });
}

export function useDeleteAdmin() {
  const refresh = useRefreshAdmins();
  return useMutation({
    mutationFn: (userName: string) => call(apiRoutes.admins.remove, { params: { user_name: userName } }),
    onSuccess: refresh,
  });
}

/** A new authenticator for another admin: the answer holds the new QR code, shown once. */
export function useResetAuthenticator() {
  return useMutation({
    mutationFn: (userName: string) =>
      call(apiRoutes.admins.resetAuthenticator, { params: { user_name: userName } }),
  });
}

export function useResetPassword() {
  return useMutation({
    mutationFn: ({ user_name, new_password }: { user_name: string; new_password: string }) =>
      call(apiRoutes.admins.resetPassword, { params: { user_name }, body: { new_password } }),
  });
}

export const lockoutsQuery = queryOptions({
  queryKey: adminKeys.lockouts,
  queryFn: () => call(apiRoutes.lockouts.list),
  // Failures arrive from sign-ins elsewhere: always show what holds now.
  staleTime: 0,
});

export function useLiftLockout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userName: string) => call(apiRoutes.lockouts.lift, { params: { user_name: userName } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.lockouts }),
  });
}
