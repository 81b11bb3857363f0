import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import PasswordOutlinedIcon from '@mui/icons-material/PasswordOutlined';
import LogoutIcon from '@mui/icons-material/Logout';
import MenuIcon from '@mui/icons-material/Menu';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import { ROLE_LABELS } from '@pathway/contract';
import { Suspense, lazy, useState } from 'react';
import { Logo } from '../../components/Logo';
import { useSession } from '../../lib/session';

/** Loaded when someone opens it, not with every page of the console. */
const ChangePasswordDialog = lazy(async () => ({
  default: (await import('../../features/auth/ChangePasswordDialog')).ChangePasswordDialog,
}));

interface TopBarProps {
  title: string;
  /** Mobile only: opens the menu drawer. */
  onOpenMenu?: () => void;
  menuOpen?: boolean;
  onLogout: () => void;
}

export function TopBar({ title, onOpenMenu, menuOpen, onLogout }: TopBarProps) {
  const session = useSession();
  const [exitAnchor, setExitAnchor] = useState<HTMLElement | null>(null);
  const exitOpen = Boolean(exitAnchor);
  const [changingPassword, setChangingPassword] = useState(false);
  const name = session
    ? [session.first_name, session.last_name].filter(Boolean).join(' ') || session.user_name
    : '';

  return (
    // Above the docked sidebar on desktop; below the menu drawer that slides over it on a phone.
    <AppBar
      position="fixed"
      elevation={0}
      sx={{ zIndex: (theme) => (onOpenMenu ? theme.zIndex.appBar : theme.zIndex.drawer + 1) }}
    >
      <Toolbar sx={{ gap: 1.5 }}>
        {onOpenMenu && (
          <IconButton
            color="inherit"
            edge="start"
            aria-label="Open menu"
            aria-controls="mobile-menu"
            aria-expanded={menuOpen ? 'true' : 'false'}
            onClick={onOpenMenu}
          >
            <MenuIcon />
          </IconButton>
        )}
        <Box sx={{ display: { xs: 'none', sm: 'flex' }, alignItems: 'center', gap: 1.5 }}>
          <Logo size={32} alt="" onDark />
          <Typography component="span" sx={{ fontWeight: 700, fontSize: '1.125rem' }}>
            Pathway
          </Typography>
          <Box aria-hidden sx={{ width: '1px', height: 24, bgcolor: 'rgba(255,255,255,0.5)', mx: 0.5 }} />
        </Box>
        <Typography component="p" variant="h6" noWrap sx={{ flexGrow: 1, fontWeight: 600 }}>
          {title}
        </Typography>
        {session && (
          <Box sx={{ display: { xs: 'none', md: 'block' }, textAlign: 'right', mr: 1 }}>
            <Typography variant="body2" sx={{ fontWeight: 600, lineHeight: 1.3 }}>
              {name}
            </Typography>
            <Typography variant="caption" sx={{ lineHeight: 1.2 }}>
              {ROLE_LABELS[session.role]}
            </Typography>
          </Box>
        )}
        <Button
          id="exit-button"
          color="inherit"
          variant="outlined"
          endIcon={<ExpandMoreIcon />}
          aria-controls={exitOpen ? 'exit-menu' : undefined}
          aria-haspopup="true"
          aria-expanded={exitOpen ? 'true' : undefined}
          onClick={(event) => setExitAnchor(event.currentTarget)}
        >
          Exit
        </Button>
        <Menu
          id="exit-menu"
          anchorEl={exitAnchor}
          open={exitOpen}
          onClose={() => setExitAnchor(null)}
          anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
          transformOrigin={{ vertical: 'top', horizontal: 'right' }}
          slotProps={{ list: { 'aria-labelledby': 'exit-button' } }}
        >
          <MenuItem
            onClick={() => {
              setExitAnchor(null);
              setChangingPassword(true);
            }}
          >
            <ListItemIcon>
              <PasswordOutlinedIcon fontSize="small" />
            </ListItemIcon>
            Change password
          </MenuItem>
          <MenuItem
            onClick={() => {
              setExitAnchor(null);
              onLogout();
            }}
          >
            <ListItemIcon>
              <LogoutIcon fontSize="small" />
            </ListItemIcon>
            Logout
          </MenuItem>
        </Menu>
        {changingPassword && (
          <Suspense fallback={null}>
            <ChangePasswordDialog onClose={() => setChangingPassword(false)} />
          </Suspense>
        )}
      </Toolbar>
    </AppBar>
  );
}
