import type {
  AuthorisedDevice,
  AuthorisedDeviceView,
  CreateDeviceBody,
  DeviceSignInPage,
} from '@pathway/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '../../lib/api';

const DEVICES_KEY = ['authorised-devices'] as const;

export const devicesQuery = queryOptions({
  queryKey: [...DEVICES_KEY, 'all'],
  queryFn: ({ signal }) => apiJson<AuthorisedDeviceView[]>('/api/authorizeddevices', { signal }),
});

function useRefresh() {
  const queryClient = useQueryClient();
  // The participants' answers name their devices, so they may have changed too.
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: DEVICES_KEY }),
      queryClient.invalidateQueries({ queryKey: ['participants'] }),
    ]);
}

export function useAddDevice() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (body: CreateDeviceBody) =>
      apiJson<AuthorisedDevice>('/api/authorizeddevices', { method: 'POST', body }),
    onSuccess: refresh,
  });
}

export function useEditDevice() {
  const refresh = useRefresh();
  return useMutation({
    // The spec's PATCH sends the device object; the server takes its name and uuid.
    mutationFn: (device: AuthorisedDeviceView) =>
      apiJson<AuthorisedDeviceView>(`/api/authorizeddevices/id/${device.authorized_device_id}`, {
        method: 'PATCH',
        body: device,
      }),
    onSuccess: refresh,
  });
}

export function useDeleteDevice() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: number) =>
      apiJson<{ message: string }>(`/api/authorizeddevices/id/${id}`, { method: 'DELETE' }),
    onSuccess: refresh,
  });
}

/** Device sign-in records (full access): tokens handed out by call 1, push tokens changed by call 2. */
export const deviceSignInsQuery = (page: number, perPage: number, flaggedOnly: boolean) =>
  queryOptions({
    queryKey: [...DEVICES_KEY, 'sign-ins', page, perPage, flaggedOnly],
    queryFn: ({ signal }) =>
      apiJson<DeviceSignInPage>(
        `/api/devicesignins?page=${page}&perPage=${perPage}${flaggedOnly ? '&flagged=true' : ''}`,
        { signal },
      ),
  });
