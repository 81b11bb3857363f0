import ReplayIcon from '@mui/icons-material/Replay';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { messages } from '@pathway/contract';
import { useRouteError } from 'react-router';
import { isChunkLoadError } from '../../components/PageErrorBoundary';
import { isApiError } from '../../lib/api';

/** When the console cannot even start a page: the server is away, or a guard's call failed. */
export function RouteErrorPage() {
  const error = useRouteError();
  const message = isApiError(error)
    ? error.message
    : isChunkLoadError(error)
      ? messages.generic.pageLoadFailed
      : 'Something went wrong. Reload the page to try again.';
  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 2 }}>
      <Paper sx={{ p: 4, maxWidth: 520 }}>
        <Typography variant="h1" sx={{ mb: 2 }}>
          The console is not available
        </Typography>
        <Alert severity="error" sx={{ mb: 3 }}>
          {message}
        </Alert>
        <Button variant="contained" startIcon={<ReplayIcon />} onClick={() => window.location.reload()}>
          Reload
        </Button>
      </Paper>
    </Box>
  );
}
