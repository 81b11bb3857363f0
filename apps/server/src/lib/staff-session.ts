import type { Role } from '@pathway/contract';
import type { Database } from '../db/client.js';

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
  /** Signed in through this organisation's identity provider; null: with password and code. */
  ssoOrganisationId: number | null;
}

/**
 * Staff sessions as the rest of the server uses them (the access plugin resolves one on every
 * request, sign-in starts one): the auth module's SessionService implements it, and the app's
 * context holds it by this interface, so the context depends on lib/ and not on a module.
 */
export interface StaffSessions {
  /**
   * `db` may be a transaction, so a sign-in's audit record and its session commit together. `sso`:
   * signed in through an organisation's identity provider, with the provider's session id (`sid`).
   */
  start(
    adminUserId: number,
    role: Role,
    ip: string,
    db?: Database,
    sso?: { organisationId: number; sid: string | null },
  ): Promise<{ token: string; expiresAt: Date }>;
  /** The live session behind a cookie, or null when it is forged, expired, idle or ended. */
  resolve(token: string | undefined): Promise<StaffSession | null>;
  /** A step-up proved the admin again: dangerous actions are allowed for the next few minutes. */
  markAuthenticated(sessionId: string, db?: Database): Promise<void>;
  end(sessionId: string): Promise<void>;
}
