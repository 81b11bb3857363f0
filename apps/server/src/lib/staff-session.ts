import type { Role } from '@pathway/contract';

// The session's cookie name and shape, read by the access plugin as well as the auth module: they
// live in lib/ because plugins do not import from modules/.
export const SESSION_COOKIE = 'jwt';

export interface StaffSession {
  sessionId: string;
  adminUserId: number;
  userName: string;
  firstName: string;
  lastName: string;
  role: Role;
  /** The organisation whose programme they work in. */
  organisationId: number;
  /** The sites of it they are limited to; empty: every site. */
  siteIds: number[];
  /** The sites whose participants they see: siteIds, or every site of the organisation. */
  visibleSiteIds: number[];
  /** Runs the instance (organisations, sites, their admins, shared video sets, server logs). */
  systemAdministrator: boolean;
  expiresAt: Date;
  /** The last sign-in or step-up of this session: dangerous actions need it recent (access.ts). */
  authenticatedAt: Date;
}
