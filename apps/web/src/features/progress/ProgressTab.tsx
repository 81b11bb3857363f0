import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { daysBehind } from '@pathway/contract';
import { useQuery } from '@tanstack/react-query';
import { format, parseISO } from 'date-fns';
import { PageLoading } from '../../components/PageLoading';
import { QueryState } from '../../components/QueryState';
import { participantProgressQuery } from '../../lib/participantProgress';
import { progressSummaryQuery, pushMessagesQuery } from './api';

const dateTime = (iso: string) => format(parseISO(iso), 'dd/MM/yyyy HH:mm');

/** 0 on track; 1 slightly behind; 2 or more shown as a danger badge (spec §2). */
export function BehindBadge({ days }: { days: number }) {
  if (days <= 0) return <Chip color="success" label="On track" />;
  const label = `${days} ${days === 1 ? 'day' : 'days'} behind`;
  return days >= 2 ? (
    <Chip color="error" label={label} />
  ) : (
    <Chip color="default" variant="outlined" label={label} />
  );
}

function Figure({ label, value }: { label: string; value: string | number }) {
  return (
    <Box>
      <Typography component="dt" variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography component="dd" sx={{ m: 0, fontWeight: 700, fontSize: '1.25rem' }}>
        {value}
      </Typography>
    </Box>
  );
}

/** Progress tab: where the participant stands, what they have watched, and the messages sent to them. */
export function ProgressTab({ participantId }: { participantId: number }) {
  const progress = useQuery(participantProgressQuery(participantId));
  const setId = progress.data?.fitness_video_set_id;
  const summary = useQuery({
    ...progressSummaryQuery(participantId, setId ?? 0),
    enabled: setId !== undefined,
  });
  const pushes = useQuery(pushMessagesQuery(participantId));

  if (progress.isPending || (setId !== undefined && summary.isPending))
    return <PageLoading label="Loading progress" />;
  if (progress.isError) return <Alert severity="error">{progress.error.message}</Alert>;
  if (!progress.data) return <Alert severity="info">This participant has no video set yet.</Alert>;
  if (summary.isError) return <Alert severity="error">{summary.error.message}</Alert>;
  const p = progress.data;
  const s = summary.data!;
  const behind = daysBehind(s.shouldSeenByNow, s.actuallySeen);
  const percentage = Number(p.percentage_progress);

  return (
    <Stack spacing={3}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2 }}>
        <Typography component="h3" variant="h3">
          Week {p.current_week}, day {p.current_day}
        </Typography>
        <BehindBadge days={behind} />
      </Box>
      <Box>
        <Typography id="progress-percentage-label" variant="body2" color="text.secondary">
          Programme completed: {percentage}%
        </Typography>
        <LinearProgress
          variant="determinate"
          value={percentage}
          aria-labelledby="progress-percentage-label"
          sx={{ height: 10, borderRadius: 5, mt: 0.5 }}
        />
      </Box>
      <Box
        component="dl"
        sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr 1fr', sm: 'repeat(3, 1fr)' }, gap: 2, m: 0 }}
      >
        <Figure label="Days passed" value={`${s.daysPassed} of ${s.todalDaysInProgramme}`} />
        <Figure label="Exercise days in programme" value={s.excerciseDaysInProgramme} />
        <Figure label="Should have seen by now" value={s.shouldSeenByNow} />
        <Figure label="Actually seen" value={s.actuallySeen} />
        <Figure label="Average per day" value={s.averagePerDay} />
        <Figure
          label="Last video watched"
          value={s.seenVideos.length ? dateTime(s.seenVideos.at(-1)!.created_at) : 'None yet'}
        />
      </Box>

      <Box>
        <Typography component="h3" variant="h3" sx={{ mb: 1 }}>
          Watched videos
        </Typography>
        {s.seenVideos.length === 0 ? (
          <Typography color="text.secondary">No videos watched yet.</Typography>
        ) : (
          <TableContainer
            sx={{ maxHeight: 280 }}
            tabIndex={0}
            role="region"
            aria-label="Watched videos, scrollable"
          >
            <Table size="small" stickyHeader aria-label="Watched videos">
              <TableHead>
                <TableRow>
                  <TableCell>Week</TableCell>
                  <TableCell>Day</TableCell>
                  <TableCell>Watched</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {s.seenVideos.map((v) => (
                  <TableRow key={`${v.week_number}-${v.day_number}`}>
                    <TableCell>{v.week_number}</TableCell>
                    <TableCell>{v.day_number}</TableCell>
                    <TableCell>{dateTime(v.created_at)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
      </Box>

      <Box>
        <Typography component="h3" variant="h3" sx={{ mb: 1 }}>
          Push messages
        </Typography>
        <QueryState query={pushes} loadingLabel="Loading push messages">
          {(data) => (
            <TableContainer
              sx={{ maxHeight: 280 }}
              tabIndex={0}
              role="region"
              aria-label="Push messages, scrollable"
            >
              <Table size="small" stickyHeader aria-label="Push messages">
                <TableHead>
                  <TableRow>
                    <TableCell>Queued</TableCell>
                    <TableCell>Message</TableCell>
                    <TableCell>Status</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {data.map((m) => (
                    <TableRow key={m.push_id}>
                      <TableCell>{dateTime(m.created_at)}</TableCell>
                      <TableCell>{m.title ?? kindLabel(m.kind)}</TableCell>
                      <TableCell>
                        {m.status}
                        {m.last_error && (
                          <Typography variant="body2" color="text.secondary">
                            {m.last_error}
                          </Typography>
                        )}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          )}
        </QueryState>
      </Box>
    </Stack>
  );
}

function kindLabel(kind: string): string {
  switch (kind) {
    case 'missed-video':
      return 'Reminder: missed video';
    case 'new-video':
      return 'Reminder: new video';
    case 'progress-forward':
      return 'Progressed one day forward';
    default:
      return 'Message from staff';
  }
}
