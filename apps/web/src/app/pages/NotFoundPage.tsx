import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { PageHeader } from '../../components/PageHeader';

export function NotFoundPage() {
  return (
    <>
      <PageHeader title="Page not found" />
      <Typography sx={{ mb: 3 }}>
        There is no page at this address. Check the address, or choose a page from the menu.
      </Typography>
      <Button variant="contained" component={RouterLink} to="/dashboard">
        Go to the dashboard
      </Button>
    </>
  );
}
