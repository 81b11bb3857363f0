import type { StaffSession } from './staff-session.js';

/** The organisation a signed-in admin works in (their row names it; the session carries it). */
export function organisationOf(staff: Pick<StaffSession, 'organisationId'>): number {
  return staff.organisationId;
}

/** Whether the admin runs the instance (every organisation's settings), whatever their role. */
export function isSystemAdministrator(staff: Pick<StaffSession, 'systemAdministrator'>): boolean {
  return staff.systemAdministrator;
}
