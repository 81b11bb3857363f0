import type { StaffSession } from './staff-session.js';

/**
 * The organisation an instance runs the programme for. Settings that belong to an organisation
 * (its single sign-on provider) are keyed by its id; an instance holds one organisation, this one,
 * until organisations of their own come (DESIGN.md, Organisations): these functions are then the
 * only places that change.
 */
export const THE_ORGANISATION_ID = 1;

/** The organisation a signed-in admin works in. */
export function organisationOf(_staff: Pick<StaffSession, 'adminUserId'>): number {
  return THE_ORGANISATION_ID;
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
export function isSystemAdministrator(_staff: Pick<StaffSession, 'adminUserId'>): boolean {
  return false;
}
