import type {
  AdminUser,
  AuthenticatorReset,
  CreateAdminBody,
  CreatedAdminUser,
  Lockout,
  UpdateAdminBody,
} from '@pathway/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '../../lib/api';
import { SESSION_KEY } from '../../lib/session';

const ADMIN_USERS_KEY = ['admin-users'] as const;

export const adminUsersQuery = queryOptions({
  queryKey: ADMIN_USERS_KEY,
  queryFn: () => apiJson<AdminUser[]>('/api/admin'),
});

function adminPath(userName: string) {
  return `/api/admin/${encodeURIComponent(userName)}`;
}

function useRefreshAdmins() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ADMIN_USERS_KEY }),
      // Changing one's own names or role changes the session shown in the console.
      queryClient.invalidateQueries({ queryKey: SESSION_KEY }),
    ]);
}

export function useCreateAdmin() {
  const refresh = useRefreshAdmins();
  return useMutation({
    mutationFn: (body: CreateAdminBody) => apiJson<CreatedAdminUser>('/api/admin', { method: 'POST', body }),
    onSuccess: refresh,
  });
}

export function useUpdateAdmin() {
  const refresh = useRefreshAdmins();
  return useMutation({
    mutationFn: ({ user_name, ...body }: UpdateAdminBody & { user_name: string }) =>
      apiJson<AdminUser>(adminPath(user_name), { method: 'PATCH', body: { ...body, user_name } }),
    onSuccess: refresh,
  });
}

export function useDeleteAdmin() {
  const refresh = useRefreshAdmins();
  return useMutation({
    mutationFn: (userName: string) => apiJson<{ message: string }>(adminPath(userName), { method: 'DELETE' }),
    onSuccess: refresh,
  });
}

/** A new authenticator for another admin: the answer holds the new QR code, shown once. */
export function useResetAuthenticator() {
  return useMutation({
    mutationFn: (userName: string) =>
      apiJson<AuthenticatorReset>(`${adminPath(userName)}/reset-authenticator`, { method: 'POST' }),
  });
}

export function useResetPassword() {
  return useMutation({
    mutationFn: ({ user_name, new_password }: { user_name: string; new_password: string }) =>
      apiJson<{ message: string }>(`${adminPath(user_name)}/reset-password`, {
        method: 'POST',
        body: { new_password },
      }),
  });
}

const LOCKOUTS_KEY = ['lockouts'] as const;

export const lockoutsQuery = queryOptions({
  queryKey: LOCKOUTS_KEY,
  queryFn: () => apiJson<Lockout[]>('/api/lockouts'),
  // Failures arrive from sign-ins elsewhere: always show what holds now.
  staleTime: 0,
});

export function useLiftLockout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userName: string) =>
      apiJson<{ message: string }>(`/api/lockouts/${encodeURIComponent(userName)}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: LOCKOUTS_KEY }),
  });
}
