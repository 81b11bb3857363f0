import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { LineChart } from '@mui/x-charts/LineChart';
import {
  apiRoutes,
  averageVideosPerDay,
  hasProgressData,
  watchedVideosChart,
  type DashboardData,
} from '@pathway/contract';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { SiteFilterNotice, SiteSelect } from '../../components/SiteSelect';
import { visuallyHidden } from '../../lib/a11y';
import { formatLongDate } from '../../lib/dates';
import { useCanCall } from '../../lib/session';
import { useSiteFilter, withSite } from '../../lib/siteFilter';
import { dashboardQuery } from './api';
import { BreakGlassCard } from './BreakGlassCard';
import { FollowupCard } from './FollowupCard';

const decimal = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 1 });
const whole = new Intl.NumberFormat('en-GB');

/**
 * The chart shortens a date that does not fit the room it has ("20 Nove…"). Slanted at 60° and
 * ending at its tick, a date runs down and to the left: the first one needs the y axis and this
 * margin beside it, and every one the axis's height below the ticks. Both fit the longest long
 * date ("30 September 2026", 12 px) with room to spare for wider fonts, and at 60° the eight
 * dates stay apart down to phone width.
 */
const DATE_ROOM_LEFT = 40;
const DATE_AXIS_HEIGHT = 130;

/** Tracking colours of the participants grid (spec §2): green, yellow, red. */
const stateColours = { onTrack: '#007F3B', slightlyBehind: '#FFB81C', behind: '#D5281B' } as const;

function StatCard({
  label,
  value,
  to,
  accent,
  hint,
}: {
  label: string;
  value: string;
  to?: string;
  accent?: string;
  /** What the figure counts, in words. */
  hint?: string;
}) {
  const content = (
    <CardContent>
      <Typography component="h2" variant="subtitle1" color="text.secondary" sx={{ fontWeight: 600 }}>
        {label}
      </Typography>
      <Typography component="p" sx={{ fontSize: '2.25rem', fontWeight: 700, lineHeight: 1.2, mt: 1 }}>
        {value}
      </Typography>
      {hint && (
        // A div, not a paragraph: the figure above is the card's one paragraph.
        <Typography component="div" variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          {hint}
        </Typography>
      )}
    </CardContent>
  );
  return (
    <Card
      variant="outlined"
      sx={{ height: '100%', ...(accent && { borderLeft: 6, borderLeftColor: accent }) }}
    >
      {to ? (
        <CardActionArea component={RouterLink} to={to} sx={{ height: '100%' }}>
          {content}
        </CardActionArea>
      ) : (
        content
      )}
    </Card>
  );
}

function CardRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box
      component="section"
      aria-label={label}
      sx={{
        display: 'grid',
        gap: 2,
        gridTemplateColumns: { xs: '1fr', sm: 'repeat(3, minmax(0, 1fr))' },
        mb: 3,
      }}
    >
      {children}
    </Box>
  );
}

function WatchedChart({ data }: { data: DashboardData }) {
  const points = watchedVideosChart(data.seenCount);
  return (
    <Paper variant="outlined" component="section" aria-labelledby="watched-chart-title" sx={{ p: 2 }}>
      <Typography id="watched-chart-title" component="h2" variant="h2" sx={{ mb: 1 }}>
        Watched videos in the last 7 days
      </Typography>
      {points.length === 0 ? (
        <Typography color="text.secondary">No videos have been watched yet.</Typography>
      ) : (
        <>
          <Box aria-hidden="true">
            <LineChart
              height={350}
              margin={{ left: DATE_ROOM_LEFT, right: 24 }}
              skipAnimation
              xAxis={[
                {
                  scaleType: 'point',
                  data: points.map((p) => p.created_at),
                  valueFormatter: (day: string) => formatLongDate(day),
                  // Slanted and ending at their tick, the long dates fit (the last is never cut at the
                  // chart's right edge) and do not overlap, down to phone width.
                  tickLabelStyle: { angle: -60, textAnchor: 'end', fontSize: 12 },
                  height: DATE_AXIS_HEIGHT,
                },
              ]}
              yAxis={[{ min: 0, tickMinStep: 1 }]}
              series={[
                {
                  data: points.map((p) => p.created_count),
                  label: 'Watched Videos',
                  color: '#005EB8',
                  curve: 'linear',
                },
              ]}
            />
          </Box>
          {/* Hidden in a box, not on the table itself: a table grows to its content whatever its
              height, and would make the page taller (and wider on a phone) than what it shows. */}
          <Box sx={visuallyHidden}>
            <Table size="small">
              <caption>
                Watched videos per day, {formatLongDate(points[0]!.created_at)} to{' '}
                {formatLongDate(points.at(-1)!.created_at)}
              </caption>
              <TableHead>
                <TableRow>
                  <TableCell>Day</TableCell>
                  <TableCell>Watched Videos</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {points.map((p) => (
                  <TableRow key={p.created_at}>
                    <TableCell>{formatLongDate(p.created_at)}</TableCell>
                    <TableCell>{p.created_count}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
        </>
      )}
    </Paper>
  );
}

export function DashboardPage() {
  const site = useSiteFilter();
  const dashboard = useQuery(dashboardQuery(site.siteId));
  const canCall = useCanCall();
  const link = (path: string) => withSite(path, site.siteId);
  return (
    <>
      <PageHeader title="Dashboard">Participants and the videos they watch.</PageHeader>
      {site.sites.length > 1 && (
        <Box sx={{ mb: 2 }}>
          <SiteSelect filter={site} />
        </Box>
      )}
      <SiteFilterNotice
        filter={site}
        unseen="the participants and views of your other sites are not counted"
      />
      <QueryState query={dashboard} loadingLabel="Loading the dashboard">
        {(data) => (
          <>
            <CardRow label="Programme">
              {/* The spec's title; the line under the figure says whom it counts. */}
              <StatCard
                label="Total participants"
                value={whole.format(data.participantsCount.counted)}
                hint="Active participants; discharged participants are not counted"
                to={link('/participants')}
              />
              <StatCard
                label="Yesterday viewed videos"
                value={whole.format(data.yesterdayWatched[0]?.created_count ?? 0)}
              />
              <StatCard
                label="Average videos per day"
                value={decimal.format(averageVideosPerDay(data.seenCount))}
              />
            </CardRow>
            {hasProgressData(data.participantsProgress) && (
              <CardRow label="Adherence">
                <StatCard
                  label="Participants on track"
                  value={whole.format(data.participantsProgress.onTrack)}
                  hint="Active participants with a programme"
                  to={link('/participants?state=onTrack')}
                  accent={stateColours.onTrack}
                />
                <StatCard
                  label="Participants slightly behind"
                  value={whole.format(data.participantsProgress.slightlyBehind)}
                  hint="Active participants with a programme"
                  to={link('/participants?state=slightlybehind')}
                  accent={stateColours.slightlyBehind}
                />
                <StatCard
                  label="Participants behind"
                  value={whole.format(data.participantsProgress.behind)}
                  hint="Active participants with a programme"
                  to={link('/participants?state=behind')}
                  accent={stateColours.behind}
                />
              </CardRow>
            )}
            <FollowupCard siteId={site.siteId} />
            {canCall(apiRoutes.audit.list) && <BreakGlassCard />}
            <WatchedChart data={data} />
          </>
        )}
      </QueryState>
    </>
  );
}
