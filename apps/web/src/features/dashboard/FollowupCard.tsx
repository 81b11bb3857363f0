import Alert from '@mui/material/Alert';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Typography from '@mui/material/Typography';
import { FOLLOWUP_REASON_LABELS, FOLLOWUP_REASONS } from '@pathway/contract';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router';
import { QueryState } from '../../components/QueryState';
import { formatLongDate } from '../../lib/dates';
import { withSite } from '../../lib/siteFilter';
import { followupCountsQuery } from './api';

const whole = new Intl.NumberFormat('en-GB');

/** "Needs follow-up": who is on today's worklist, per reason; each figure opens the list. */
export function FollowupCard({ siteId }: { siteId?: number }) {
  const counts = useQuery(followupCountsQuery(siteId));
  return (
    <Card variant="outlined" component="section" aria-labelledby="followup-card-title" sx={{ mb: 3 }}>
      <CardActionArea component={RouterLink} to={withSite('/followup', siteId)}>
        <CardContent>
          <Typography
            id="followup-card-title"
            component="h2"
            variant="subtitle1"
            color="text.secondary"
            sx={{ fontWeight: 600 }}
          >
            Needs follow-up
          </Typography>
          <Typography component="p" sx={{ fontSize: '2.25rem', fontWeight: 700, lineHeight: 1.2, mt: 1 }}>
            {counts.data ? whole.format(counts.data.total) : '…'}
          </Typography>
        </CardContent>
      </CardActionArea>
      <CardContent sx={{ pt: 0 }}>
        <QueryState query={counts} loadingLabel="Loading the follow-up counts">
          {(data) => (
            <>
              {data.daily_check_overdue && (
                <Alert severity="warning" sx={{ mb: 1.5 }}>
                  {data.daily_check_last_run_on
                    ? `The daily adherence check last ran on ${formatLongDate(data.daily_check_last_run_on)}: days behind and follow-up reasons may be out of date. Tell the operator.`
                    : 'The daily adherence check has not run yet: days behind and follow-up reasons may be out of date. Tell the operator.'}
                </Alert>
              )}
              <List
                dense
                aria-label="Needs follow-up, per reason"
                sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, p: 0 }}
              >
                {FOLLOWUP_REASONS.map((r) => (
                  <ListItem key={r} sx={{ width: 'auto', p: 0 }}>
                    <Link component={RouterLink} to={withSite(`/followup?reason=${r}`, siteId)}>
                      {FOLLOWUP_REASON_LABELS[r]}: {whole.format(data.reasons[r])}
                    </Link>
                  </ListItem>
                ))}
              </List>
            </>
          )}
        </QueryState>
      </CardContent>
    </Card>
  );
}
