import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router';
import { formatDate } from '../../lib/dates';
import { BREAK_GLASS, breakGlassQuery } from './api';

/**
 * Break-glass sign-ins: a password sign-in while the organisation requires single sign-on is a
 * security event (usually the identity provider was down). Full access sees how many there were
 * and the last one, and opens them in the audit trail. Shown to those who may read the trail.
 */
export function BreakGlassCard() {
  const events = useQuery(breakGlassQuery);
  const total = events.data?.pagination.total;
  const last = events.data?.data[0];
  return (
    <Card variant="outlined" component="section" aria-labelledby="break-glass-card-title" sx={{ mb: 3 }}>
      <CardActionArea component={RouterLink} to={`/audit?action=${BREAK_GLASS}`}>
        <CardContent>
          <Typography
            id="break-glass-card-title"
            component="h2"
            variant="subtitle1"
            color="text.secondary"
            sx={{ fontWeight: 600 }}
          >
            Break-glass sign-ins
          </Typography>
          <Typography component="p" sx={{ fontSize: '2.25rem', fontWeight: 700, lineHeight: 1.2, mt: 1 }}>
            {total === undefined ? '…' : total}
          </Typography>
          <Typography component="div" variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
            {last
              ? `Last: ${last.admin_user_name} on ${formatDate(last.created_at)}. Password sign-ins while single sign-on is required.`
              : 'None: password sign-ins while single sign-on is required are counted here.'}
          </Typography>
        </CardContent>
      </CardActionArea>
    </Card>
  );
}
