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
  expiresAt: Date;
  /** The last sign-in or step-up of this session: dangerous actions need it recent (access.ts). */
  authenticatedAt: Date;
  /** Signed in through this organisation's identity provider; null: with password and code. */
  ssoOrganisationId: number | null;
}
