import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { ExternalLink } from './ExternalLink';
// The release's one version, from the root package.json (Vite keeps only this field).
import { version } from '../../../../package.json';

export const HEALTH_SERVICE_URL = 'https://www.nhs.uk';

export function SiteFooter() {
  return (
    <Box
      component="footer"
      sx={{
        px: 3,
        py: 2,
        borderTop: 1,
        borderColor: 'divider',
        bgcolor: 'background.paper',
        display: 'flex',
        flexWrap: 'wrap',
        gap: 1,
        justifyContent: 'space-between',
      }}
    >
      <Typography variant="body2" color="text.secondary">
        © {new Date().getFullYear()} Pathway exercise programme · version {version}
      </Typography>
      <Typography variant="body2">
        <ExternalLink href={HEALTH_SERVICE_URL}>NHS website</ExternalLink>
      </Typography>
    </Box>
  );
}
