import type { AuthorisedDevice } from '@pathway/contract';

/** A device as the spec's dropdown shows it: name, a dash, then uuid. */
export function deviceLabel(device: Pick<AuthorisedDevice, 'name' | 'uuid'>): string {
  return `${device.name} - ${device.uuid}`;
}
