// Without zod, like role-names.ts: the console's shell asks `can()` before any form is loaded.
import type { Role } from './role-names.js';

/**
 * What a role may do beyond what every signed-in admin may do (the dashboard, the participant
 * grid without identifiable fields, video sets, devices, progress, push messages). The server
 * enforces each one; the console only mirrors them.
 */
export const PERMISSIONS = [
  /** See, search, sort, export and change participants' identifiable and referral fields; the
   *  names of device holders, the whole uuid of an assigned device, push message texts. */
  'participants.identifiable',
  /** Add (one by one or imported from CSV), discharge, re-refer and delete participants. */
  'participants.manage',
  /** Records due for review after the retention period, their destruction, and the subject
   *  access download (everything held about one participant). */
  'records.manage',
  /** Put a participant on a tablet, or give an assigned tablet a new uuid. */
  'devices.assign',
  /** Device sign-in records (they hold addresses). */
  'devices.signins',
  /** Admin users and their sign-in locks. */
  'admins.manage',
  /** The audit trail, and how long its records and the logs are kept. */
  'audit.read',
  /** The server's log files (the whole instance's). */
  'logs.read',
  /** Organisations and their sites, every organisation's admin users, shared video sets. */
  'instance.manage',
  /** The single sign-on settings of one's own organisation (its OpenID Connect provider). */
  'sso.manage',
  /** The catalogue of outcome measures (add, change, retire) and each video set's assessment schedule. */
  'outcomes.manage',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/**
 * The permissions that govern part of a route's data rather than who may call the route (who may
 * call a route is its entry's `permission`, api-routes.ts): the server's services and presenters
 * ask them per field, and the console shows or hides those fields and the controls that change
 * them by these names, never by writing a permission.
 */
export const FIELD_PERMISSIONS = {
  /** Participants' identifiable fields (IDENTIFIABLE_FIELDS) in answers, and changing them. */
  identifiable: 'participants.identifiable',
  /** A participant's device (`unique_device_id`), and a new uuid for an assigned device. */
  deviceAssignment: 'devices.assign',
} as const satisfies Record<string, Permission>;
export type FieldPermission = keyof typeof FIELD_PERMISSIONS;

/**
 * What only a system administrator may do, whatever their role in their organisation: the
 * instance's permissions, which no role of an organisation holds. A system administrator reads no
 * participant record through these: their own organisation's records come with their role alone.
 */
export const SYSTEM_ADMINISTRATOR_PERMISSIONS: ReadonlySet<Permission> = new Set<Permission>([
  'logs.read',
  'instance.manage',
]);

/** Who may do what: adding a role is a row here (and its name in role-names.ts). */
const ROLE_PERMISSIONS: Record<Role, ReadonlySet<Permission>> = {
  'basic access': new Set<Permission>(),
  'full access': new Set<Permission>(
    PERMISSIONS.filter((permission) => permission !== 'logs.read' && permission !== 'instance.manage'),
  ),
};

/** A signed-in admin as permissions see them: their role, and whether they run the instance. */
export interface Caller {
  role: Role;
  systemAdministrator: boolean;
}

/** Whether a role, or an admin (their role, then whether they are a system administrator), may. */
export function can(caller: Role | Caller, permission: Permission): boolean {
  if (typeof caller === 'string') return ROLE_PERMISSIONS[caller].has(permission);
  return (
    ROLE_PERMISSIONS[caller.role].has(permission) ||
    (caller.systemAdministrator && SYSTEM_ADMINISTRATOR_PERMISSIONS.has(permission))
  );
}

/** The roles holding a permission (e.g. to keep at least one admin who can manage admins). */
export function rolesWith(permission: Permission): Role[] {
  return (Object.keys(ROLE_PERMISSIONS) as Role[]).filter((role) => can(role, permission));
}
