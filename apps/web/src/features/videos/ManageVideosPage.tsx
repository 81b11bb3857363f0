import AddIcon from '@mui/icons-material/Add';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import RefreshIcon from '@mui/icons-material/Refresh';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ButtonBase from '@mui/material/ButtonBase';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { isReadyThumbnailUrl, limits, type Video, type VideoSet } from '@pathway/contract';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { PageLoading } from '../../components/PageLoading';
import { QueryState } from '../../components/QueryState';
import { setThumbsQuery, setVideosQuery, useReloadThumbnail, videoSetQuery } from './api';
import { AddVideoDialog, DeleteVideoDialog, VideoPlayerDialog } from './VideoDialogs';

type OpenDialog =
  | { kind: 'add'; day: number }
  | { kind: 'play'; videoId: number }
  | { kind: 'delete'; videoId: number }
  | null;

/** Manage videos of a set (spec §2): week buttons, one row per exercise day, thumbnails, ADD. */
export function ManageVideosPage() {
  const setId = Number(useParams().fitness_video_set_id);
  const valid = Number.isInteger(setId) && setId > 0;
  const set = useQuery({ ...videoSetQuery(setId), enabled: valid });

  if (!valid) return <Alert severity="error">This address does not name a video set.</Alert>;
  if (set.isPending) return <PageLoading label="Loading the video set" />;
  if (set.isError) {
    return (
      <>
        <BackToSets />
        <Alert severity="error">{set.error.message}</Alert>
      </>
    );
  }
  return <SetVideos set={set.data} />;
}

function BackToSets() {
  return (
    <Button component={RouterLink} to="/videoset" startIcon={<ArrowBackIcon />} sx={{ mb: 2 }}>
      Video Sets
    </Button>
  );
}

function SetVideos({ set }: { set: VideoSet }) {
  const setId = set.fitness_video_set_id;
  const videos = useQuery(setVideosQuery(setId));
  const thumbs = useQuery(setThumbsQuery(setId));
  const [week, setWeek] = useState(1);
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const close = () => setDialog(null);

  // The thumbnail status comes from the reload route when it is newer than the list.
  const byPosition = useMemo(() => {
    const map = new Map<string, Video>();
    for (const video of videos.data ?? []) {
      const fresh = thumbs.data?.[String(video.week_number)]?.find((t) => t.video_id === video.video_id);
      map.set(
        `${video.week_number}/${video.day_number}`,
        fresh ? { ...video, video_thumbnail_url: fresh.video_thumbnail_url } : video,
      );
    }
    return map;
  }, [videos.data, thumbs.data]);
  const findVideo = (videoId: number) => videos.data?.find((v) => v.video_id === videoId);
  const days = Array.from({ length: set.videos_in_week }, (_, i) => i + 1);
  const weeks = Array.from({ length: set.number_of_weeks }, (_, i) => i + 1);
  const playing = dialog?.kind === 'play' ? findVideo(dialog.videoId) : undefined;
  const deleting = dialog?.kind === 'delete' ? findVideo(dialog.videoId) : undefined;

  return (
    <>
      <BackToSets />
      <PageHeader title={set.set_name}>
        {set.number_of_weeks} {set.number_of_weeks === 1 ? 'week' : 'weeks'}, {set.videos_in_week}{' '}
        {set.videos_in_week === 1 ? 'video' : 'videos'} per week. Choose a week, then add or open the video of
        each day.
      </PageHeader>

      <Typography id="week-picker-label" variant="h2" sx={{ mb: 1 }}>
        Week
      </Typography>
      <ToggleButtonGroup
        value={week}
        exclusive
        onChange={(_event, value: number | null) => value !== null && setWeek(value)}
        aria-labelledby="week-picker-label"
        color="primary"
        sx={{ flexWrap: 'wrap', mb: 3, '& .MuiToggleButton-root': { minWidth: 48 } }}
      >
        {weeks.map((w) => (
          <ToggleButton key={w} value={w} aria-label={`Week ${w}`}>
            {w}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>

      <QueryState query={videos} loadingLabel="Loading videos">
        {() => (
          <TableContainer component={Paper} variant="outlined">
            <Table aria-label={`Videos of week ${week}`} sx={{ minWidth: 560 }}>
              <TableHead>
                <TableRow>
                  <TableCell sx={{ width: 120 }}>Day Number</TableCell>
                  <TableCell>Video</TableCell>
                  <TableCell align="right" sx={{ width: 120 }}>
                    ADD
                  </TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {days.map((day) => {
                  const video = byPosition.get(`${week}/${day}`);
                  return (
                    <TableRow key={day}>
                      <TableCell>{day}</TableCell>
                      <TableCell>
                        {video ? (
                          <VideoCell
                            video={video}
                            onOpen={() => setDialog({ kind: 'play', videoId: video.video_id })}
                          />
                        ) : (
                          <Typography variant="body2" color="text.secondary">
                            No video yet
                          </Typography>
                        )}
                      </TableCell>
                      <TableCell align="right">
                        {!video && (
                          <Button
                            variant="outlined"
                            size="small"
                            startIcon={<AddIcon />}
                            aria-label={`Add a video for week ${week}, day ${day}`}
                            onClick={() => setDialog({ kind: 'add', day })}
                          >
                            ADD
                          </Button>
                        )}
                      </TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          </TableContainer>
        )}
      </QueryState>

      {dialog?.kind === 'add' && <AddVideoDialog set={set} week={week} day={dialog.day} onClose={close} />}
      {playing && (
        <VideoPlayerDialog
          video={playing}
          onRemove={() => setDialog({ kind: 'delete', videoId: playing.video_id })}
          onClose={close}
        />
      )}
      {deleting && (
        <DeleteVideoDialog
          video={deleting}
          onDeleted={close}
          onClose={() => setDialog({ kind: 'play', videoId: deleting.video_id })}
        />
      )}
    </>
  );
}

/**
 * A thumbnail (100x80) when it is ready, else its status text with a reload button. Opens the
 * player either way: the video itself is there from the moment it was saved.
 */
function VideoCell({ video, onOpen }: { video: Video; onOpen: () => void }) {
  const reload = useReloadThumbnail(video.fitness_video_set_id);
  const ready = isReadyThumbnailUrl(video.video_thumbnail_url);
  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
      <ButtonBase
        onClick={onOpen}
        aria-label={`Play ${video.title}`}
        sx={{
          borderRadius: 1,
          flexShrink: 0,
          '&:focus-visible': { outline: 3, outlineColor: 'primary.main' },
        }}
      >
        {ready ? (
          <img
            src={video.video_thumbnail_url}
            alt=""
            width={limits.thumbnailWidth}
            height={limits.thumbnailHeight}
            style={{ display: 'block', borderRadius: 8, objectFit: 'cover' }}
          />
        ) : (
          <Box
            sx={{
              width: limits.thumbnailWidth,
              height: limits.thumbnailHeight,
              borderRadius: 1,
              bgcolor: 'action.hover',
              display: 'flex',
              alignItems: 'center',
              justifyContent: 'center',
              p: 0.5,
            }}
          >
            <Typography variant="caption" sx={{ textAlign: 'center', overflowWrap: 'anywhere' }}>
              {video.video_thumbnail_url}
            </Typography>
          </Box>
        )}
      </ButtonBase>
      <Box sx={{ minWidth: 0 }}>
        <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{video.title}</Typography>
        {!ready && (
          <Tooltip title="Reload thumbnail" describeChild>
            <IconButton
              size="small"
              aria-label={`Reload the thumbnail of ${video.title}`}
              onClick={() => reload.mutate(video)}
              disabled={reload.isPending}
            >
              <RefreshIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        )}
      </Box>
    </Stack>
  );
}
