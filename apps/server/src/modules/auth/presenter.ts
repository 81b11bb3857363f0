import type { Role, SessionInfo } from '@pathway/contract';
import { organisationOf, organisationOfAdmin } from '../../lib/organisation.js';
import type { StaffSession } from './sessions.js';

/** The signed-in admin as GET /api/session answers them. */
export function presentSession(s: StaffSession): SessionInfo {
  return {
    admin_user_id: s.adminUserId,
    user_name: s.userName,
    first_name: s.firstName,
    last_name: s.lastName,
    role: s.role,
    expires_at: s.expiresAt.toISOString(),
    organisation_id: organisationOf(s),
    single_sign_on: s.ssoOrganisationId !== null,
  };
}

/** The session a sign-in just opened, as POST /login answers it. */
export function presentSignIn(result: {
  admin: { admin_user_id: number; user_name: string; first_name: string; last_name: string };
  role: Role;
  expiresAt: Date;
}): { message: string; session: SessionInfo } {
  return {
    message: 'Signed in',
    session: {
      admin_user_id: result.admin.admin_user_id,
      user_name: result.admin.user_name,
      first_name: result.admin.first_name,
      last_name: result.admin.last_name,
      role: result.role,
      expires_at: result.expiresAt.toISOString(),
      organisation_id: organisationOfAdmin(result.admin),
    },
  };
}
