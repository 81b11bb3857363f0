import BlockIcon from '@mui/icons-material/Block';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { messages } from '@pathway/contract';
import { Link as RouterLink } from 'react-router';
import { PageHeader } from '../../components/PageHeader';

export function NotAllowedPage() {
  return (
    <>
      <PageHeader title="Not allowed" />
      <Alert severity="error" icon={<BlockIcon />} sx={{ mb: 3 }}>
        {messages.session.forbidden} This page is for full-access admin users only. Ask a full-access admin
        user if you need it.
      </Alert>
      <Button variant="contained" component={RouterLink} to="/dashboard">
        Go to the dashboard
      </Button>
    </>
  );
}
