import type { AuthorisedDevice, AuthorisedDeviceView, CreateDeviceBody } from '@pathway/contract';
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
