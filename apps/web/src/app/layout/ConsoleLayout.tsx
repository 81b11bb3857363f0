import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import Link from '@mui/material/Link';
import Toolbar from '@mui/material/Toolbar';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { Suspense, useEffect, useState } from 'react';
import { Outlet, useLocation, useMatches, useNavigation } from 'react-router';
import { PageErrorBoundary } from '../../components/PageErrorBoundary';
import { PageLoading } from '../../components/PageLoading';
import { SiteFooter } from '../../components/SiteFooter';
import { StepUpHost } from '../../components/StepUpHost';
import { ParticipantRecordProvider } from '../../lib/participantRecord';
import { useLogout, useSession } from '../../lib/session';
import { participantRecordParts } from '../participantRecord';
import { usePrefetchWhenIdle } from '../prefetch';
import type { ConsoleRoute } from '../routes';
import { Sidebar } from './Sidebar';
import { TopBar } from './TopBar';

const DRAWER_WIDTH = 264;
const MINI_WIDTH = 80;
const MINIMISED_KEY = 'pathway.sidebar.minimised';

/** The choice is kept in the browser; storage can be unavailable (private windows, policies). */
function storedMinimised(): boolean {
  try {
    return localStorage.getItem(MINIMISED_KEY) === 'true';
  } catch {
    return false;
  }
}

function storeMinimised(minimised: boolean): void {
  try {
    localStorage.setItem(MINIMISED_KEY, String(minimised));
  } catch {
    // Not remembered: the menu still works for this visit.
  }
}

export interface RouteHandle {
  route?: ConsoleRoute;
  title?: string;
}

function useCurrentPage() {
  const matches = useMatches();
  const handle = [...matches].reverse().find((m) => (m.handle as RouteHandle | undefined)?.title)?.handle as
    | RouteHandle
    | undefined;
  const route = handle?.route;
  return { title: handle?.title ?? 'Pathway', activePath: route ? (route.section ?? route.path) : undefined };
}

function SkipLink() {
  return (
    <Link
      href="#main-content"
      onClick={(event) => {
        event.preventDefault();
        document.getElementById('main-content')?.focus();
      }}
      sx={{
        position: 'absolute',
        left: -10000,
        top: 8,
        zIndex: (theme) => theme.zIndex.tooltip + 1,
        bgcolor: 'background.paper',
        px: 2,
        py: 1,
        borderRadius: 1,
        '&:focus': { left: 8 },
      }}
    >
      Skip to main content
    </Link>
  );
}

/** Sidebar, top bar, the page and the footer (spec §2 Layout). */
export function ConsoleLayout() {
  const theme = useTheme();
  const desktop = useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  const session = useSession();
  const logout = useLogout();
  const { pathname } = useLocation();
  const navigation = useNavigation();
  const { title, activePath } = useCurrentPage();
  const [mobileOpen, setMobileOpen] = useState(false);
  const [minimised, setMinimised] = useState(storedMinimised);
  usePrefetchWhenIdle();

  useEffect(() => {
    document.title = `${title} - Pathway`;
  }, [title]);

  // The session can end while a page is open (idle timeout, another tab's logout): a check on
  // window focus then finds none, and the query cache takes the user to sign in (leaveForSignIn).
  // Nothing of the console shows meanwhile. During a navigation, such as logout's, the page stays
  // until the next one replaces it.
  if (session === null && navigation.state === 'idle') return null;

  const toggleMinimised = () => {
    storeMinimised(!minimised);
    setMinimised(!minimised);
  };
  const drawerWidth = minimised ? MINI_WIDTH : DRAWER_WIDTH;

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <SkipLink />
      <StepUpHost />
      <TopBar
        title={title}
        onLogout={() => void logout()}
        onOpenMenu={desktop ? undefined : () => setMobileOpen(true)}
        menuOpen={mobileOpen}
      />
      {desktop ? (
        <Drawer
          variant="permanent"
          sx={{
            width: drawerWidth,
            flexShrink: 0,
            '& .MuiDrawer-paper': { width: drawerWidth, boxSizing: 'border-box', overflowX: 'hidden' },
          }}
        >
          <Toolbar />
          <Sidebar
            activePath={activePath}
            minimised={minimised}
            onToggleMinimised={toggleMinimised}
            onLogout={() => void logout()}
          />
        </Drawer>
      ) : (
        <Drawer
          id="mobile-menu"
          variant="temporary"
          open={mobileOpen}
          onClose={() => setMobileOpen(false)}
          ModalProps={{ keepMounted: true }}
          sx={{ '& .MuiDrawer-paper': { width: DRAWER_WIDTH, boxSizing: 'border-box' } }}
        >
          <Sidebar
            activePath={activePath}
            welcome
            onNavigate={() => setMobileOpen(false)}
            onLogout={() => {
              setMobileOpen(false);
              void logout();
            }}
          />
        </Drawer>
      )}
      <Box sx={{ flexGrow: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        <Toolbar />
        <Box
          component="main"
          id="main-content"
          tabIndex={-1}
          sx={{
            flexGrow: 1,
            p: { xs: 2, sm: 3 },
            outline: 'none',
            width: '100%',
            maxWidth: 1400,
            mx: 'auto',
          }}
        >
          <PageErrorBoundary key={pathname}>
            <Suspense fallback={<PageLoading label="Loading the page" />}>
              <ParticipantRecordProvider value={participantRecordParts}>
                <Outlet />
              </ParticipantRecordProvider>
            </Suspense>
          </PageErrorBoundary>
        </Box>
        <SiteFooter />
      </Box>
    </Box>
  );
}
