import { z } from 'zod';
import { requiredText } from './common.js';
import { limits } from './limits.js';
import { messages } from './messages.js';
import { NO_DEVICE } from './participant-names.js';

const m = messages.device;

/**
 * Words a uuid cannot be: "empty" means "no device" in a participant's unique_device_id, and
 * "available" and "id" are paths of the devices API.
 */
export const RESERVED_DEVICE_UUIDS = [NO_DEVICE, 'available', 'id'] as const;

/**
 * How a basic-access admin sees the uuid of an assigned device: its last four characters. A
 * device id is not a secret, but the whole one of an assigned tablet is only for full access.
 */
export const maskDeviceUuid = (uuid: string): string => `…${uuid.slice(-4)}`;
export const isMaskedDeviceUuid = (uuid: string): boolean => uuid.startsWith('…');

export const deviceName = requiredText(m.nameEmpty, limits.textMin, m.nameShort);

/** The device's unique id, stored lower-cased (the tablet reports its Android ID in lower case). */
export const deviceUuid = requiredText(m.uuidEmpty, 1, m.uuidEmpty, 100)
  .regex(/^[A-Za-z0-9._:-]+$/, { error: m.uuidFormat, abort: true })
  .transform((v) => v.toLowerCase())
  .refine((v) => !(RESERVED_DEVICE_UUIDS as readonly string[]).includes(v), { error: m.uuidReserved });

export const createDeviceBody = z
  .object({ name: deviceName, uuid: deviceUuid })
  .meta({ id: 'CreateAuthorisedDevice' });
export type CreateDeviceBody = z.input<typeof createDeviceBody>;
export type CreateDeviceInput = z.output<typeof createDeviceBody>;

/** The console sends the whole device object; only name and uuid can change. */
export const updateDeviceBody = z
  .object({
    name: deviceName.optional(),
    // A basic-access console holds the masked uuid of an assigned device and sends it back
    // unchanged with the object: a masked value means "not changed".
    uuid: z.preprocess(
      (v) => (typeof v === 'string' && isMaskedDeviceUuid(v) ? undefined : v),
      deviceUuid.optional(),
    ),
  })
  .meta({ id: 'UpdateAuthorisedDevice', description: 'Other fields of the device object are ignored.' });
export type UpdateDeviceBody = z.input<typeof updateDeviceBody>;
export type UpdateDeviceInput = z.output<typeof updateDeviceBody>;

/** The console's edit form for an assigned device whose uuid basic access holds masked: the name only. */
export const renameMaskedDeviceForm = z.object({ name: deviceName, uuid: z.string() });

export const deviceIdParams = z.object({
  id: z.coerce
    .number({ error: 'The device id must be a whole number' })
    .int({ error: 'The device id must be a whole number' })
    .positive({ error: 'The device id must be a whole number' })
    .max(2147483647, { error: 'The device id is out of range' }),
});
export const deviceUuidParams = z.object({ uuid: z.string().min(1).max(100) });

/** A device as every admin sees it: whether it is assigned, never to whom by name. */
export const authorisedDevice = z
  .object({
    authorized_device_id: z.number().int(),
    name: z.string(),
    uuid: z.string(),
    push_notification_id: z.string().nullable(),
    unique_device_id: z
      .string()
      .describe('The uuid when assigned to a participant, else the literal "empty"'),
    participant_id: z
      .number()
      .int()
      .nullable()
      .describe('The participant it is assigned to; null when unassigned'),
    flagged_sign_in_at: z
      .string()
      .nullable()
      .describe(
        "The last call 1 from a new address while the tablet's token was in use within the hour (see GET /api/devicesignins); null when none",
      ),
  })
  .meta({
    id: 'AuthorisedDevice',
    description:
      'For basic access, `uuid` and `unique_device_id` of an assigned device are masked (…7f3a): only full access assigns devices.',
  });
export type AuthorisedDevice = z.infer<typeof authorisedDevice>;

/** With the assigned participant's names, for full-access admins. */
export const authorisedDeviceWithNames = authorisedDevice
  .extend({ first_name: z.string().nullable(), last_name: z.string().nullable() })
  .meta({ id: 'AuthorisedDeviceWithNames' });
export type AuthorisedDeviceWithNames = z.infer<typeof authorisedDeviceWithNames>;

export const authorisedDeviceView = z.union([authorisedDeviceWithNames, authorisedDevice]);
export type AuthorisedDeviceView = AuthorisedDevice | AuthorisedDeviceWithNames;

// ---- Device sign-in records (full access) ---------------------------------------------------

export const DEVICE_SIGN_IN_KINDS = ['token issued', 'push token changed'] as const;

export const deviceSignIn = z
  .object({
    device_sign_in_id: z.number().int(),
    kind: z.enum(DEVICE_SIGN_IN_KINDS),
    authorized_device_id: z.number().int().nullable(),
    device_uuid: z.string(),
    device_name: z.string().nullable(),
    participant_id: z.number().int().nullable(),
    ip_address: z.string(),
    flagged: z
      .boolean()
      .describe("Call 1 from a new address while the tablet's token was in use within the hour"),
    created_at: z.string(),
  })
  .meta({ id: 'DeviceSignIn' });
export type DeviceSignIn = z.infer<typeof deviceSignIn>;

export const deviceSignInQuery = z.object({
  page: z.coerce.number().int().min(1).max(100000).default(1),
  perPage: z.coerce.number().int().min(1).max(500).default(50),
  authorized_device_id: z.coerce.number().int().positive().max(2147483647).optional(),
  flagged: z.enum(['true', 'false']).optional(),
});

export const deviceSignInPage = z
  .object({
    data: z.array(deviceSignIn),
    total: z.number().int(),
    page: z.number().int(),
    perPage: z.number().int(),
  })
  .meta({ id: 'DeviceSignInPage' });
export type DeviceSignInPage = z.infer<typeof deviceSignInPage>;
