import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';

export function PageLoading({ label = 'Loading' }: { label?: string }) {
  return (
    <Box role="status" sx={{ display: 'flex', justifyContent: 'center', alignItems: 'center', py: 8 }}>
      <CircularProgress aria-label={label} />
    </Box>
  );
}
