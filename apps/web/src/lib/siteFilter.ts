import type { SessionInfo } from '@pathway/contract';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { siteName, useSessionSites } from './organisations';

/** The address's name for the chosen site: `?site=12`, so a filtered page can be shared and reloaded. */
export const SITE_PARAM = 'site';

export interface SiteFilter {
  /** The sites the admin sees; the selector is shown only when there is more than one. */
  sites: SessionInfo['sites'];
  /** The one site chosen, or undefined for every site the admin sees. */
  siteId: number | undefined;
  /** The chosen site's name, or null for every site. */
  siteLabel: string | null;
  setSiteId: (siteId: number | undefined) => void;
}

/** The site chosen in an address, when it is one of `sites` (a stale or foreign one is every site). */
export function siteOfSearch(search: URLSearchParams, sites: SessionInfo['sites']): number | undefined {
  const value = search.get(SITE_PARAM);
  if (value === null || !/^\d+$/.test(value)) return undefined;
  const siteId = Number(value);
  return sites.length > 1 && sites.some((site) => site.site_id === siteId) ? siteId : undefined;
}

/**
 * The site filter of the Participants, Follow-up, Dashboard and Reports pages: one site of those
 * the admin sees, kept in the address, or every site. The server holds the filter within the
 * admin's sites whatever the address says; this only chooses among them.
 */
export function useSiteFilter(): SiteFilter {
  const sites = useSessionSites();
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const location = useLocation();
  const siteId = siteOfSearch(searchParams, sites);
  return {
    sites,
    siteId,
    siteLabel: siteId === undefined ? null : siteName(sites, siteId),
    // The other filters of the address (and its hash, the participant list's #onTrack) stay.
    setSiteId: (wanted) => {
      const next = new URLSearchParams(searchParams);
      if (wanted === undefined) next.delete(SITE_PARAM);
      else next.set(SITE_PARAM, String(wanted));
      void navigate(
        { pathname: location.pathname, search: next.toString() ? `?${next}` : '', hash: location.hash },
        { replace: true },
      );
    },
  };
}

/** A link to another page of the console, for the same site (or every site). */
export function withSite(path: string, siteId: number | undefined): string {
  if (siteId === undefined) return path;
  const [pathname, search = ''] = path.split('?');
  const params = new URLSearchParams(search);
  params.set(SITE_PARAM, String(siteId));
  return `${pathname}?${params}`;
}
