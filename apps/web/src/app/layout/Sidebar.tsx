import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import LogoutIcon from '@mui/icons-material/Logout';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { ReactElement, ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { Logo } from '../../components/Logo';
import { visuallyHidden } from '../../lib/a11y';
import { useCanCall, useSession } from '../../lib/session';
import { usePreloadOnIntent } from '../prefetch';
import { consoleRoutes, type ConsoleRoute } from '../routes';

interface SidebarProps {
  /** The path of the sidebar entry of the page shown. */
  activePath: string | undefined;
  /** Icons only (desktop). */
  minimised?: boolean;
  onToggleMinimised?: () => void;
  /** The mobile menu's header. */
  welcome?: boolean;
  onNavigate?: () => void;
  onLogout: () => void;
}

function WithTooltip({ show, title, children }: { show: boolean; title: string; children: ReactElement }) {
  return show ? (
    <Tooltip title={title} placement="right">
      {children}
    </Tooltip>
  ) : (
    children
  );
}

function EntryContent({
  icon,
  label,
  minimised,
  active,
}: {
  icon: ReactNode;
  label: string;
  minimised: boolean;
  active?: boolean;
}) {
  return (
    <>
      <ListItemIcon
        sx={{ minWidth: 0, mr: minimised ? 0 : 1.5, color: active ? 'primary.main' : 'text.secondary' }}
      >
        {icon}
      </ListItemIcon>
      <ListItemText
        primary={label}
        sx={minimised ? visuallyHidden : undefined}
        // One line each: "Authorised devices" fits the menu's width rather than wrapping.
        slotProps={{ primary: { fontWeight: active ? 700 : 500, sx: { whiteSpace: 'nowrap' } } }}
      />
    </>
  );
}

const entrySx = (minimised: boolean) => ({
  minHeight: 48,
  px: 2,
  justifyContent: minimised ? 'center' : 'flex-start',
  borderRadius: 2,
  mx: 1,
});

/** A page's entry in the menu; its page is loaded ahead when the entry is about to be chosen. */
function MenuEntry({
  route,
  active,
  minimised,
  onNavigate,
}: {
  route: ConsoleRoute;
  active: boolean;
  minimised: boolean;
  onNavigate?: () => void;
}) {
  const intent = usePreloadOnIntent(route);
  const Icon = route.nav!.icon;
  return (
    <ListItem disablePadding sx={{ display: 'block' }}>
      <WithTooltip show={minimised} title={route.nav!.label}>
        <ListItemButton
          component={RouterLink}
          to={route.path}
          selected={active}
          aria-current={active ? 'page' : undefined}
          {...intent}
          onClick={onNavigate}
          sx={entrySx(minimised)}
        >
          <EntryContent icon={<Icon />} label={route.nav!.label} minimised={minimised} active={active} />
        </ListItemButton>
      </WithTooltip>
    </ListItem>
  );
}

/** The console's menu: the pages of the route registry this admin may open, and Logout. */
export function Sidebar({
  activePath,
  minimised = false,
  onToggleMinimised,
  welcome,
  onNavigate,
  onLogout,
}: SidebarProps) {
  const session = useSession();
  const canCall = useCanCall();
  const entries = consoleRoutes.filter((r) => r.nav && canCall(r.route));

  return (
    <Box
      component="nav"
      aria-label="Main menu"
      sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}
    >
      {welcome ? (
        <Box
          sx={{
            px: 2.5,
            py: 2,
            display: 'flex',
            alignItems: 'center',
            gap: 1.5,
            bgcolor: 'primary.main',
            color: 'primary.contrastText',
          }}
        >
          <Logo size={36} alt="" onDark />
          <Box>
            <Typography component="p" variant="h6" sx={{ fontWeight: 700, lineHeight: 1.2 }}>
              Welcome
            </Typography>
            {session && (
              <Typography variant="body2">
                {[session.first_name, session.last_name].filter(Boolean).join(' ') || session.user_name}
              </Typography>
            )}
          </Box>
        </Box>
      ) : null}
      <List sx={{ pt: 1 }}>
        {entries.map((route) => (
          <MenuEntry
            key={route.path}
            route={route}
            active={activePath === route.path}
            minimised={minimised}
            onNavigate={onNavigate}
          />
        ))}
      </List>
      <Divider />
      <List>
        <ListItem disablePadding sx={{ display: 'block' }}>
          <WithTooltip show={minimised} title="Logout">
            <ListItemButton onClick={onLogout} sx={entrySx(minimised)}>
              <EntryContent icon={<LogoutIcon />} label="Logout" minimised={minimised} />
            </ListItemButton>
          </WithTooltip>
        </ListItem>
      </List>
      {onToggleMinimised && (
        <>
          <Box sx={{ flexGrow: 1 }} />
          <Divider />
          <List>
            <ListItem disablePadding sx={{ display: 'block' }}>
              <WithTooltip show={minimised} title="Expand menu">
                <ListItemButton onClick={onToggleMinimised} sx={entrySx(minimised)}>
                  <EntryContent
                    icon={minimised ? <ChevronRightIcon /> : <ChevronLeftIcon />}
                    label={minimised ? 'Expand menu' : 'Minimise menu'}
                    minimised={minimised}
                  />
                </ListItemButton>
              </WithTooltip>
            </ListItem>
          </List>
        </>
      )}
    </Box>
  );
}
