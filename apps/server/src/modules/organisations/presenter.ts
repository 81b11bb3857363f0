import type { Organisation, Site } from '@pathway/contract';
import type { organisations, sites } from '../../db/schema.js';

export function presentOrganisation(
  row: typeof organisations.$inferSelect,
  siteCount: number,
  participantCount: number,
): Organisation {
  return {
    organisation_id: row.organisation_id,
    name: row.name,
    ods_code: row.ods_code,
    created_at: row.created_at.toISOString(),
    sites: siteCount,
    participants: participantCount,
  };
}

export function presentSite(row: typeof sites.$inferSelect): Site {
  return {
    site_id: row.site_id,
    organisation_id: row.organisation_id,
    name: row.name,
    ods_code: row.ods_code,
    created_at: row.created_at.toISOString(),
  };
}
