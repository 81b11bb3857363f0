import { messages } from '@pathway/contract';
import { requireScope, withScope } from '../db/scope.js';
import { notFound } from './http-error.js';
import type { StaffSession } from './staff-session.js';

/** Whether an admin sees a site's participants: one of their organisation's, among their sites if limited. */
export function seesSite(staff: Pick<StaffSession, 'visibleSiteIds'>, siteId: number): boolean {
  return staff.visibleSiteIds.includes(siteId);
}

/**
 * Runs `work` for one site (`?site_id=` of a list, a count, the dashboard, a report or an export),
 * or for every site the admin sees when none is named. The filter narrows the request's scope to
 * that site, so every statement `work` makes, however deep (counts, tallies, the reports' rollups,
 * an export's later batches), reads that site's rows alone: the policies that keep the admin to
 * their sites keep the filter too. It is a choice within the admin's scope, never a way out of it:
 * a site they do not see (another organisation's, one outside their sites, or none) is "Site not
 * found" whatever the reason, so another organisation's site does not show it exists, and nothing
 * is read.
 */
export async function withinSite<T>(
  staff: Pick<StaffSession, 'visibleSiteIds'>,
  siteId: number | undefined,
  work: () => Promise<T>,
): Promise<T> {
  if (siteId === undefined) return work();
  if (!seesSite(staff, siteId)) throw notFound(messages.organisation.siteNotFound);
  const scope = requireScope();
  if (scope.kind !== 'staff') throw new Error('A site filter narrows the scope of a signed-in admin');
  return withScope({ ...scope, siteIds: [siteId] }, work);
}

/** How an audit record names the filter: nothing for every site. */
export function siteDetail(siteId: number | undefined): string {
  return siteId === undefined ? '' : `, site ${siteId}`;
}
