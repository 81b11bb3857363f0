import { asc, eq, inArray } from 'drizzle-orm';
import type { SessionInfo } from '@pathway/contract';
import type { Database } from '../../db/client.js';
import { organisations, sites } from '../../db/schema.js';
import type { StaffSession } from './sessions.js';

/**
 * The signed-in admin as GET /api/session and POST /login answer them: with their organisation and
 * the sites they see, so the console shows a site selector only where there is a choice.
 */
export async function presentSession(db: Database, s: StaffSession): Promise<SessionInfo> {
  const [[organisation], visible] = await Promise.all([
    db
      .select({
        organisation_id: organisations.organisation_id,
        name: organisations.name,
        ods_code: organisations.ods_code,
      })
      .from(organisations)
      .where(eq(organisations.organisation_id, s.organisationId)),
    s.visibleSiteIds.length === 0
      ? []
      : db
          .select({ site_id: sites.site_id, name: sites.name, ods_code: sites.ods_code })
          .from(sites)
          .where(inArray(sites.site_id, s.visibleSiteIds))
          .orderBy(asc(sites.name), asc(sites.site_id)),
  ]);
  return {
    admin_user_id: s.adminUserId,
    user_name: s.userName,
    first_name: s.firstName,
    last_name: s.lastName,
    role: s.role,
    expires_at: s.expiresAt.toISOString(),
    organisation: organisation!,
    sites: visible,
    site_ids: s.siteIds,
    system_administrator: s.systemAdministrator,
    organisation_id: s.organisationId,
    single_sign_on: s.ssoOrganisationId !== null,
  };
}
