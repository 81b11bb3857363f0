import type { Role, SessionInfo } from '@pathway/contract';

/**
 * A signed-in admin of `role` in the instance's one organisation and site, as GET /api/session
 * answers it; full access is also a system administrator, as a single team's first admin is.
 */
export function sessionOf(role: Role, overrides: Partial<SessionInfo> = {}): SessionInfo {
  return {
    admin_user_id: 1,
    user_name: 'alice.admin',
    first_name: 'Alice',
    last_name: 'Smith',
    role,
    expires_at: '2030-01-01T00:00:00.000Z',
    organisation: { organisation_id: 1, name: 'Pathway programme', ods_code: null },
    sites: [{ site_id: 1, name: 'Pathway programme', ods_code: null }],
    site_ids: [],
    system_administrator: role === 'full access',
    ...overrides,
  };
}
