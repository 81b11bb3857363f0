import type { StaffSession } from './staff-session.js';

/**
 * The organisation single sign-on's settings belong to. A signed-in admin's is the one their row
 * names (the session carries it); THE_ORGANISATION_ID is the instance's first, the one an upgraded
 * instance became, and the only one organisationExists knows so far: single sign-on for a second
 * organisation is refused with a 404 until it reads the organisations table.
 */
export const THE_ORGANISATION_ID = 1;

/** The organisation a signed-in admin works in. */
export function organisationOf(staff: Pick<StaffSession, 'organisationId'>): number {
  return staff.organisationId;
}

/** The organisation an admin user belongs to (by their row). */
export function organisationOfAdmin(_admin: { admin_user_id: number }): number {
  return THE_ORGANISATION_ID;
}

/** Whether an organisation of this id exists. */
export function organisationExists(id: number): boolean {
  return id === THE_ORGANISATION_ID;
}

/** Whether the admin runs the instance (every organisation's settings), whatever their role. */
export function isSystemAdministrator(staff: Pick<StaffSession, 'systemAdministrator'>): boolean {
  return staff.systemAdministrator;
}
