import AdminPanelSettingsOutlinedIcon from '@mui/icons-material/AdminPanelSettingsOutlined';
import DashboardOutlinedIcon from '@mui/icons-material/DashboardOutlined';
import DescriptionOutlinedIcon from '@mui/icons-material/DescriptionOutlined';
import GroupOutlinedIcon from '@mui/icons-material/GroupOutlined';
import OndemandVideoOutlinedIcon from '@mui/icons-material/OndemandVideoOutlined';
import PolicyOutlinedIcon from '@mui/icons-material/PolicyOutlined';
import Inventory2OutlinedIcon from '@mui/icons-material/Inventory2Outlined';
import TabletAndroidOutlinedIcon from '@mui/icons-material/TabletAndroidOutlined';
import type SvgIcon from '@mui/material/SvgIcon';
import type { Permission } from '@pathway/contract';
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { LOG_VIEWER_PATH } from '../features/server-logs/paths';

export interface ConsoleRoute {
  /** The path of spec §2, e.g. '/video/:fitness_video_set_id'. */
  path: string;
  /** The route name shown in the top bar and the window title. */
  title: string;
  /** Who may open the page besides being signed in (spec §6); none: any signed-in admin. */
  permission?: Permission;
  page: LazyExoticComponent<ComponentType>;
  /** An entry in the sidebar, in the order of this list. */
  nav?: { label: string; icon: typeof SvgIcon };
  /** For pages without an entry: the sidebar entry (its path) to highlight. */
  section?: string;
}

/** Loads one page in its own chunk; pages are named exports of their feature's module. */
function lazyPage<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M) {
  return lazy(async () => ({ default: (await load())[name] as ComponentType }));
}

/**
 * Every page of the console. A feature adds its page here: the router, the sidebar, the top bar
 * title and the permission guard all follow from this list.
 */
export const consoleRoutes: ConsoleRoute[] = [
  {
    path: '/dashboard',
    title: 'Dashboard',
    page: lazyPage(() => import('../features/dashboard/DashboardPage'), 'DashboardPage'),
    nav: { label: 'Dashboard', icon: DashboardOutlinedIcon },
  },
  {
    path: '/participants',
    title: 'Participants',
    page: lazyPage(() => import('../features/participants/ParticipantsPage'), 'ParticipantsPage'),
    nav: { label: 'Participants', icon: GroupOutlinedIcon },
  },
  {
    path: '/addparticipant',
    title: 'Add participant',
    // Adding a participant is full access only (spec §6); the server refuses it to basic access.
    permission: 'participants.manage',
    page: lazyPage(() => import('../features/participants/AddParticipantPage'), 'AddParticipantPage'),
    section: '/participants',
  },
  {
    path: '/videoset',
    title: 'Video Sets',
    page: lazyPage(() => import('../features/video-sets/VideoSetsPage'), 'VideoSetsPage'),
    nav: { label: 'Video Sets', icon: OndemandVideoOutlinedIcon },
  },
  {
    path: '/video/:fitness_video_set_id',
    title: 'Manage videos',
    page: lazyPage(() => import('../features/video-sets/ManageVideosPage'), 'ManageVideosPage'),
    section: '/videoset',
  },
  {
    path: '/authoriseddevices',
    title: 'Authorised devices',
    page: lazyPage(() => import('../features/devices/AuthorisedDevicesPage'), 'AuthorisedDevicesPage'),
    nav: { label: 'Authorised devices', icon: TabletAndroidOutlinedIcon },
  },
  {
    path: '/adminusers',
    title: 'Admin Users',
    permission: 'admins.manage',
    page: lazyPage(() => import('../features/admin-users/AdminUsersPage'), 'AdminUsersPage'),
    nav: { label: 'Admin Users', icon: AdminPanelSettingsOutlinedIcon },
  },
  {
    path: '/serverlogs',
    title: 'Server Logs',
    permission: 'logs.read',
    page: lazyPage(() => import('../features/server-logs/ServerLogsPage'), 'ServerLogsPage'),
    nav: { label: 'Server Logs', icon: DescriptionOutlinedIcon },
  },
  {
    path: '/audit',
    title: 'Audit trail',
    permission: 'audit.read',
    page: lazyPage(() => import('../features/audit/AuditPage'), 'AuditPage'),
    nav: { label: 'Audit trail', icon: PolicyOutlinedIcon },
  },
  {
    path: '/records',
    title: 'Records due for review',
    permission: 'records.manage',
    page: lazyPage(() => import('../features/records/RecordsDuePage'), 'RecordsDuePage'),
    nav: { label: 'Records review', icon: Inventory2OutlinedIcon },
  },
];

/** The log viewer opens in a popup window of its own, outside the console's layout. */
export const logViewerRoute: ConsoleRoute = {
  path: LOG_VIEWER_PATH,
  title: 'Server log',
  permission: 'logs.read',
  page: lazyPage(() => import('../features/server-logs/LogViewerPage'), 'LogViewerPage'),
};
