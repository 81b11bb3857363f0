import ApartmentOutlinedIcon from '@mui/icons-material/ApartmentOutlined';
import AdminPanelSettingsOutlinedIcon from '@mui/icons-material/AdminPanelSettingsOutlined';
import AssessmentOutlinedIcon from '@mui/icons-material/AssessmentOutlined';
import DashboardOutlinedIcon from '@mui/icons-material/DashboardOutlined';
import DescriptionOutlinedIcon from '@mui/icons-material/DescriptionOutlined';
import FactCheckOutlinedIcon from '@mui/icons-material/FactCheckOutlined';
import GroupOutlinedIcon from '@mui/icons-material/GroupOutlined';
import PhoneInTalkOutlinedIcon from '@mui/icons-material/PhoneInTalkOutlined';
import OndemandVideoOutlinedIcon from '@mui/icons-material/OndemandVideoOutlined';
import PolicyOutlinedIcon from '@mui/icons-material/PolicyOutlined';
import Inventory2OutlinedIcon from '@mui/icons-material/Inventory2Outlined';
import TabletAndroidOutlinedIcon from '@mui/icons-material/TabletAndroidOutlined';
import VpnKeyOutlinedIcon from '@mui/icons-material/VpnKeyOutlined';
import type SvgIcon from '@mui/material/SvgIcon';
import { apiRoutes, type RouteRef } from '@pathway/contract';
import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { prefetchDashboard } from '../features/dashboard/api';
import { prefetchFollowup } from '../features/followup/api';
import { LOG_VIEWER_PATH } from '../features/logs/paths';
import { prefetchParticipants } from '../features/participants/api';
import { prefetchReports } from '../features/reports/api';
import type { CanCall } from '../lib/session';
import { lazyNamed, type Preloadable } from './lazyNamed';

export interface ConsoleRoute {
  /** The path of spec §2, e.g. '/video/:fitness_video_set_id'. */
  path: string;
  /** The route name shown in the top bar and the window title. */
  title: string;
  /**
   * The route the page loads (or, for a page that makes something, the route it sends to): the
   * page, and its sidebar entry, are offered to whoever may call it (`canCall`), so who may open a
   * page follows from the route's entry in the contract's table (spec §6).
   */
  route: RouteRef;
  /** Its chunk loads when it is first shown, or ahead of that (app/prefetch.ts). */
  page: Preloadable<ComponentType>;
  /**
   * The page's first data as its sidebar entry opens it, fetched ahead of a visit: when a pointer
   * rests on the entry, it is focused or pressed. `whenIdle`: also while the console has nothing
   * else to do, for data whose reading is not written to the audit trail (a read made ahead that
   * nobody looks at must not appear there as if someone had).
   */
  prefetch?: { data: (queryClient: QueryClient, canCall: CanCall) => Promise<unknown>; whenIdle?: boolean };
  /** An entry in the sidebar, in the order of this list. */
  nav?: { label: string; icon: typeof SvgIcon };
  /** For pages without an entry: the sidebar entry (its path) to highlight. */
  section?: string;
}

/**
 * Every page of the console. A feature adds its page here: the router, the sidebar, the top bar
 * title and the access guard (by the page's `route`) all follow from this list.
 */
export const consoleRoutes: ConsoleRoute[] = [
  {
    path: '/dashboard',
    title: 'Dashboard',
    route: apiRoutes.dashboard.get,
    page: lazyNamed(() => import('../features/dashboard/DashboardPage'), 'DashboardPage'),
    prefetch: { data: prefetchDashboard, whenIdle: true },
    nav: { label: 'Dashboard', icon: DashboardOutlinedIcon },
  },
  {
    path: '/participants',
    title: 'Participants',
    route: apiRoutes.participants.list,
    page: lazyNamed(() => import('../features/participants/ParticipantsPage'), 'ParticipantsPage'),
    prefetch: { data: prefetchParticipants },
    nav: { label: 'Participants', icon: GroupOutlinedIcon },
  },
  {
    path: '/followup',
    title: 'Follow-up',
    route: apiRoutes.followup.list,
    page: lazyNamed(() => import('../features/followup/FollowupPage'), 'FollowupPage'),
    prefetch: { data: prefetchFollowup },
    nav: { label: 'Follow-up', icon: PhoneInTalkOutlinedIcon },
  },
  {
    path: '/addparticipant',
    title: 'Add participant',
    // Adding a participant is full access only (spec §6): offered to whoever may send it.
    route: apiRoutes.participants.create,
    page: lazyNamed(() => import('../features/participants/AddParticipantPage'), 'AddParticipantPage'),
    section: '/participants',
  },
  {
    path: '/participants/import',
    title: 'Import participants',
    route: apiRoutes.participants.import,
    page: lazyNamed(
      () => import('../features/participants/ImportParticipantsPage'),
      'ImportParticipantsPage',
    ),
    section: '/participants',
  },
  {
    path: '/videoset',
    title: 'Video Sets',
    route: apiRoutes.videoSets.list,
    page: lazyNamed(() => import('../features/videos/VideoSetsPage'), 'VideoSetsPage'),
    nav: { label: 'Video Sets', icon: OndemandVideoOutlinedIcon },
  },
  {
    path: '/video/:fitness_video_set_id',
    title: 'Manage videos',
    route: apiRoutes.videoSets.get,
    page: lazyNamed(() => import('../features/videos/ManageVideosPage'), 'ManageVideosPage'),
    section: '/videoset',
  },
  {
    path: '/videoset/:fitness_video_set_id/assessments',
    title: 'Assessments',
    route: apiRoutes.outcomes.schedule,
    page: lazyNamed(() => import('../features/outcomes/SchedulePage'), 'SchedulePage'),
    section: '/videoset',
  },
  // The catalogue is changed by full access only: offered to whoever may add a measure.
  {
    path: '/measures',
    title: 'Outcome measures',
    route: apiRoutes.outcomes.createMeasure,
    page: lazyNamed(() => import('../features/outcomes/MeasuresPage'), 'MeasuresPage'),
    nav: { label: 'Outcome measures', icon: FactCheckOutlinedIcon },
  },
  {
    path: '/authoriseddevices',
    title: 'Authorised devices',
    route: apiRoutes.devices.list,
    page: lazyNamed(() => import('../features/devices/AuthorisedDevicesPage'), 'AuthorisedDevicesPage'),
    nav: { label: 'Authorised devices', icon: TabletAndroidOutlinedIcon },
  },
  // Aggregates only, so both roles.
  {
    path: '/reports',
    title: 'Reports',
    route: apiRoutes.reports.get,
    page: lazyNamed(() => import('../features/reports/ReportsPage'), 'ReportsPage'),
    prefetch: { data: prefetchReports },
    nav: { label: 'Reports', icon: AssessmentOutlinedIcon },
  },
  {
    path: '/adminusers',
    title: 'Admin Users',
    route: apiRoutes.admins.list,
    page: lazyNamed(() => import('../features/admin/AdminUsersPage'), 'AdminUsersPage'),
    nav: { label: 'Admin Users', icon: AdminPanelSettingsOutlinedIcon },
  },
  {
    // The instance's organisations: system administrators only (the route's permission).
    path: '/organisations',
    title: 'Organisations',
    route: apiRoutes.organisations.create,
    page: lazyNamed(() => import('../features/organisations/OrganisationsPage'), 'OrganisationsPage'),
    nav: { label: 'Organisations', icon: ApartmentOutlinedIcon },
  },
  {
    // The organisation's own identity provider: full access of that organisation.
    path: '/organisation/sso',
    title: 'Single sign-on',
    route: apiRoutes.sso.get,
    page: lazyNamed(() => import('../features/sso/SsoSettingsPage'), 'SsoSettingsPage'),
    nav: { label: 'Single sign-on', icon: VpnKeyOutlinedIcon },
  },
  {
    path: '/serverlogs',
    title: 'Server Logs',
    route: apiRoutes.logs.list,
    page: lazyNamed(() => import('../features/logs/ServerLogsPage'), 'ServerLogsPage'),
    nav: { label: 'Server Logs', icon: DescriptionOutlinedIcon },
  },
  {
    path: '/audit',
    title: 'Audit trail',
    route: apiRoutes.audit.list,
    page: lazyNamed(() => import('../features/audit/AuditPage'), 'AuditPage'),
    nav: { label: 'Audit trail', icon: PolicyOutlinedIcon },
  },
  {
    path: '/records',
    title: 'Records due for review',
    route: apiRoutes.records.due,
    page: lazyNamed(() => import('../features/life-cycle/RecordsDuePage'), 'RecordsDuePage'),
    nav: { label: 'Records review', icon: Inventory2OutlinedIcon },
  },
];

/** The log viewer opens in a popup window of its own, outside the console's layout. */
export const logViewerRoute: ConsoleRoute = {
  path: LOG_VIEWER_PATH,
  title: 'Server log',
  route: apiRoutes.logs.read,
  page: lazyNamed(() => import('../features/logs/LogViewerPage'), 'LogViewerPage'),
};
