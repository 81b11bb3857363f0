import AdminPanelSettingsOutlinedIcon from '@mui/icons-material/AdminPanelSettingsOutlined';
import DashboardOutlinedIcon from '@mui/icons-material/DashboardOutlined';
import DescriptionOutlinedIcon from '@mui/icons-material/DescriptionOutlined';
import GroupOutlinedIcon from '@mui/icons-material/GroupOutlined';
import OndemandVideoOutlinedIcon from '@mui/icons-material/OndemandVideoOutlined';
import TabletAndroidOutlinedIcon from '@mui/icons-material/TabletAndroidOutlined';
import type SvgIcon from '@mui/material/SvgIcon';
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { LOG_VIEWER_PATH } from '../features/server-logs/paths';

/** Who may open a page: any signed-in admin, or full-access admins only (spec §6). */
export type PageAccess = 'staff' | 'full';

export interface ConsoleRoute {
  /** The path of spec §2, e.g. '/video/:fitness_video_set_id'. */
  path: string;
  /** The route name shown in the top bar and the window title. */
  title: string;
  access: PageAccess;
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
 * title and the full-access guard all follow from this list.
 */
export const consoleRoutes: ConsoleRoute[] = [
  {
    path: '/dashboard',
    title: 'Dashboard',
    access: 'staff',
    page: lazyPage(() => import('../features/dashboard/DashboardPage'), 'DashboardPage'),
    nav: { label: 'Dashboard', icon: DashboardOutlinedIcon },
  },
  {
    path: '/participants',
    title: 'Participants',
    access: 'staff',
    page: lazyPage(() => import('../features/participants/ParticipantsPage'), 'ParticipantsPage'),
    nav: { label: 'Participants', icon: GroupOutlinedIcon },
  },
  {
    path: '/addparticipant',
    title: 'Add participant',
    access: 'staff',
    page: lazyPage(() => import('../features/participants/AddParticipantPage'), 'AddParticipantPage'),
    section: '/participants',
  },
  {
    path: '/videoset',
    title: 'Video Sets',
    access: 'staff',
    page: lazyPage(() => import('../features/video-sets/VideoSetsPage'), 'VideoSetsPage'),
    nav: { label: 'Video Sets', icon: OndemandVideoOutlinedIcon },
  },
  {
    path: '/video/:fitness_video_set_id',
    title: 'Manage videos',
    access: 'staff',
    page: lazyPage(() => import('../features/video-sets/ManageVideosPage'), 'ManageVideosPage'),
    section: '/videoset',
  },
  {
    path: '/authoriseddevices',
    title: 'Authorised devices',
    access: 'staff',
    page: lazyPage(() => import('../features/devices/AuthorisedDevicesPage'), 'AuthorisedDevicesPage'),
    nav: { label: 'Authorised devices', icon: TabletAndroidOutlinedIcon },
  },
  {
    path: '/adminusers',
    title: 'Admin Users',
    access: 'full',
    page: lazyPage(() => import('../features/admin-users/AdminUsersPage'), 'AdminUsersPage'),
    nav: { label: 'Admin Users', icon: AdminPanelSettingsOutlinedIcon },
  },
  {
    path: '/serverlogs',
    title: 'Server Logs',
    access: 'full',
    page: lazyPage(() => import('../features/server-logs/ServerLogsPage'), 'ServerLogsPage'),
    nav: { label: 'Server Logs', icon: DescriptionOutlinedIcon },
  },
];

/** The log viewer opens in a popup window of its own, outside the console's layout. */
export const logViewerRoute: ConsoleRoute = {
  path: LOG_VIEWER_PATH,
  title: 'Server log',
  access: 'full',
  page: lazyPage(() => import('../features/server-logs/LogViewerPage'), 'LogViewerPage'),
};
