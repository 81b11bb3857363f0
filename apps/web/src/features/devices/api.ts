import { apiRoutes, type AuthorisedDeviceView, type CreateDeviceBody } from '@pathway/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../lib/api';
import { deviceKeys, participantKeys } from '../../lib/queryKeys';

export const devicesQuery = queryOptions({
  queryKey: deviceKeys.list(),
  queryFn: ({ signal }) => call(apiRoutes.devices.list, { signal }),
});

function useRefresh() {
  const queryClient = useQueryClient();
  // The participants' answers name their devices, so they may have changed too.
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: deviceKeys.all }),
      queryClient.invalidateQueries({ queryKey: participantKeys.all }),
    ]);
}

export function useAddDevice() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (body: CreateDeviceBody) => call(apiRoutes.devices.create, { body }),
    onSuccess: refresh,
  });
}

export function useEditDevice() {
  const refresh = useRefresh();
  return useMutation({
    // The spec's PATCH sends the device object; the server takes its name and uuid.
    mutationFn: (device: AuthorisedDeviceView) =>
      call(apiRoutes.devices.update, { params: { id: device.authorized_device_id }, body: device }),
    onSuccess: refresh,
  });
}

export function useDeleteDevice() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: number) => call(apiRoutes.devices.remove, { params: { id } }),
    onSuccess: refresh,
  });
}

/** Device sign-in records (full access): tokens handed out by call 1, push tokens changed by call 2. */
export const deviceSignInsQuery = (page: number, perPage: number, flaggedOnly: boolean) =>
  queryOptions({
    queryKey: deviceKeys.signIns(page, perPage, flaggedOnly),
    queryFn: ({ signal }) =>
      call(apiRoutes.devices.signIns, {
        query: { page, perPage, flagged: flaggedOnly ? 'true' : undefined },
        signal,
      }),
  });
