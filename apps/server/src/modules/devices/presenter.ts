import {
  FIELD_PERMISSIONS,
  can,
  NO_DEVICE,
  maskDeviceUuid,
  type AuthorisedDevice,
  type AuthorisedDeviceView,
  type DeviceSignIn,
  type Role,
} from '@pathway/contract';
import type { deviceSignIns } from '../../db/schema.js';

/** A device with its participant (if any), as the service selects it. */
export interface DeviceRow {
  authorized_device_id: number;
  name: string;
  uuid: string;
  push_notification_id: string | null;
  participant_id: number | null;
  first_name: string | null;
  last_name: string | null;
  flagged_sign_in_at: Date | string | null;
}

/**
 * Every admin learns whether a device is assigned; only full access learns to whom by name, and
 * the whole uuid of an assigned device (with it, call 1 would answer the participant's name).
 */
export function presentDevice(row: DeviceRow, role: Role): AuthorisedDeviceView {
  const assigned = row.participant_id !== null;
  const identifiable = can(role, FIELD_PERMISSIONS.identifiable);
  const uuid = assigned && !identifiable ? maskDeviceUuid(row.uuid) : row.uuid;
  const device: AuthorisedDevice = {
    authorized_device_id: row.authorized_device_id,
    name: row.name,
    uuid,
    push_notification_id: row.push_notification_id,
    unique_device_id: assigned ? uuid : NO_DEVICE,
    participant_id: row.participant_id,
    flagged_sign_in_at:
      row.flagged_sign_in_at === null ? null : new Date(row.flagged_sign_in_at).toISOString(),
  };
  if (!identifiable) return device;
  return { ...device, first_name: row.first_name, last_name: row.last_name };
}

/** A sign-in record (full access only: it holds the tablet's address). */
export function presentDeviceSignIn(
  record: typeof deviceSignIns.$inferSelect,
  deviceName: string | null,
): DeviceSignIn {
  return {
    device_sign_in_id: record.device_sign_in_id,
    kind: record.kind as DeviceSignIn['kind'],
    authorized_device_id: record.authorized_device_id,
    device_uuid: record.device_uuid,
    device_name: deviceName,
    participant_id: record.participant_id,
    ip_address: record.ip_address,
    flagged: record.flagged,
    created_at: record.created_at.toISOString(),
  };
}
