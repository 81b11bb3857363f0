import type { APIRequestContext } from '@playwright/test';
import type { AuthorisedDevice, ParticipantFull } from '@pathway/contract';
import { expect } from './fixtures';

let counter = 0;

/** A name no other test uses, in letters only (names are searched for in the grid). */
export function uniqueWord(prefix: string): string {
  counter += 1;
  const letters = (Date.now() * 100 + counter)
    .toString(26)
    .split('')
    .map((c) => String.fromCharCode(97 + parseInt(c, 26)))
    .join('');
  return `${prefix}${letters}`;
}

/** A fresh Android-style device id: 16 lower-case hex characters. */
export function newUuid(): string {
  return Array.from({ length: 16 }, () => Math.floor(Math.random() * 16).toString(16)).join('');
}

export async function addDevice(
  api: APIRequestContext,
  name = uniqueWord('Tablet '),
): Promise<AuthorisedDevice> {
  const response = await api.post('/api/authorizeddevices', { data: { name, uuid: newUuid() } });
  expect(response.status(), await response.text()).toBe(201);
  return response.json();
}

/** A participant with a device of their own, added through the API as the setup's full-access admin. */
export async function addParticipant(
  api: APIRequestContext,
  overrides: Partial<Record<string, unknown>> = {},
): Promise<{ participant: ParticipantFull; device: AuthorisedDevice }> {
  const device = await addDevice(api);
  const response = await api.post('/api/participant', {
    data: {
      first_name: 'Ada',
      last_name: uniqueWord('Lovelace'),
      gender: 'female',
      date_of_birth: '1961-04-12',
      email: 'ada@example.org',
      phone_number: '+447700900123',
      address: '1 Test Street, Leeds',
      language: 'English',
      unique_device_id: device.uuid,
      programme_referred_to: 'pad-programme',
      referring_organisation: 'Leeds Community Practice',
      referring_healthcare_professional: 'Dr Grace Hopper',
      referring_healthcare_professional_role: 'GP',
      checked_contraindications_to_exercise: true,
      smoker: false,
      diabetes: false,
      registered_deaf: false,
      ...overrides,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return { participant: await response.json(), device };
}
