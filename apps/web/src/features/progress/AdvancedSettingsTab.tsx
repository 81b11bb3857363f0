import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { messages, type ParticipationProgress } from '@pathway/contract';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { PageLoading } from '../../components/PageLoading';
import { QueryState } from '../../components/QueryState';
import { participantProgressQuery } from '../../lib/participantProgress';
import {
  setVideosQuery,
  useMoveProgress,
  usePurgeCache,
  useReextractThumbnail,
  videoSetChoicesQuery,
  type SetVideo,
  type VideoSetChoice,
} from './api';

const m = messages.progress;

/**
 * Which call a move makes (spec §4): an earlier day of the current week goes backward, any
 * later week (or a later day of this one) forward, an earlier week is refused.
 */
export function moveDirection(current: { week: number; day: number }, target: { week: number; day: number }) {
  if (target.week === current.week && target.day < current.day) return 'backward';
  if (target.week >= current.week) return 'forward';
  return null;
}

function Confirm({
  title,
  children,
  onConfirm,
  onClose,
  busy,
  action,
}: {
  title: string;
  children: ReactNode;
  onConfirm: () => void;
  onClose: () => void;
  busy: boolean;
  action: string;
}) {
  return (
    <Dialog
      open
      onClose={onClose}
      aria-labelledby="advanced-confirm-title"
      aria-describedby="advanced-confirm-text"
    >
      <DialogTitle id="advanced-confirm-title">{title}</DialogTitle>
      <DialogContent>
        <DialogContentText id="advanced-confirm-text">{children}</DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 2 }}>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={onConfirm} loading={busy}>
          {action}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function MoveForm({
  participantId,
  progress,
  set,
}: {
  participantId: number;
  progress: ParticipationProgress;
  set: VideoSetChoice;
}) {
  const move = useMoveProgress(participantId);
  const [week, setWeek] = useState(String(progress.current_week));
  const [day, setDay] = useState(String(progress.current_day));
  const [errors, setErrors] = useState<{ week?: string; day?: string; move?: string }>({});
  const [moved, setMoved] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setMoved(false);
    const target = { week: Number(week), day: Number(day) };
    const found: typeof errors = {};
    if (week.trim() === '') found.week = m.weekEmpty;
    else if (!Number.isInteger(target.week) || target.week < 1 || target.week > set.number_of_weeks) {
      found.week = m.weekRange(progress.current_week, set.number_of_weeks);
    }
    if (day.trim() === '') found.day = m.dayEmpty;
    else if (!Number.isInteger(target.day) || target.day < 1 || target.day > set.videos_in_week)
      found.day = m.dayRange(set.videos_in_week);
    const direction = moveDirection({ week: progress.current_week, day: progress.current_day }, target);
    if (!found.week && !found.day && !direction) found.move = m.cannotMoveBack;
    setErrors(found);
    if (Object.keys(found).length > 0 || !direction) return;
    move.mutate({ direction, ...target }, { onSuccess: () => setMoved(true) });
  };

  return (
    <Box component="form" noValidate onSubmit={submit} aria-labelledby="move-title">
      <Typography id="move-title" component="h3" variant="h3" sx={{ mb: 1 }}>
        Move to week and day
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Now at week {progress.current_week}, day {progress.current_day}. A participant can go back only to an
        earlier day of the current week.
      </Typography>
      {moved && move.data && (
        <Alert severity="success" sx={{ mb: 2 }}>
          Participant moved to week {move.data.current_week}, day {move.data.current_day}.
        </Alert>
      )}
      {(errors.move || move.error) && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }}>
          {errors.move ?? move.error!.message}
        </Alert>
      )}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
        <TextField
          id="move-week"
          label="Week"
          type="number"
          value={week}
          onChange={(e) => setWeek(e.target.value)}
          slotProps={{ htmlInput: { min: progress.current_week, max: set.number_of_weeks, step: 1 } }}
          error={Boolean(errors.week)}
          helperText={errors.week ?? `${progress.current_week} to ${set.number_of_weeks}`}
          sx={{ maxWidth: { sm: 160 } }}
        />
        <TextField
          id="move-day"
          label="Day"
          type="number"
          value={day}
          onChange={(e) => setDay(e.target.value)}
          slotProps={{ htmlInput: { min: 1, max: set.videos_in_week, step: 1 } }}
          error={Boolean(errors.day)}
          helperText={errors.day ?? `1 to ${set.videos_in_week}`}
          sx={{ maxWidth: { sm: 160 } }}
        />
        <Button type="submit" variant="contained" loading={move.isPending} sx={{ mt: { sm: 1 } }}>
          Move
        </Button>
      </Stack>
    </Box>
  );
}

function PurgeCache({ participantId }: { participantId: number }) {
  const purge = usePurgeCache(participantId);
  const [confirming, setConfirming] = useState(false);
  return (
    <Box>
      <Typography component="h3" variant="h3" sx={{ mb: 1 }}>
        Purge cache
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        The tablet app deletes the videos it has stored and downloads them again the next time it starts.
      </Typography>
      {purge.isSuccess && (
        <Alert severity="success" sx={{ mb: 2 }}>
          The app will download all videos again when it next starts.
        </Alert>
      )}
      {purge.error && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }}>
          {purge.error.message}
        </Alert>
      )}
      <Button variant="outlined" onClick={() => setConfirming(true)}>
        Purge cache
      </Button>
      {confirming && (
        <Confirm
          title="Purge the app's video cache?"
          action="Purge cache"
          busy={purge.isPending}
          onClose={() => setConfirming(false)}
          onConfirm={() => purge.mutate(undefined, { onSettled: () => setConfirming(false) })}
        >
          The participant's tablet will download every video of their programme again.
        </Confirm>
      )}
    </Box>
  );
}

function ThumbnailReextract({ videoSetId }: { videoSetId: number }) {
  const videos = useQuery(setVideosQuery(videoSetId));
  const reextract = useReextractThumbnail();
  const [selected, setSelected] = useState<number | ''>('');
  const [confirming, setConfirming] = useState(false);
  const video: SetVideo | undefined = videos.data?.find((v) => v.video_id === selected);
  return (
    <Box>
      <Typography component="h3" variant="h3" sx={{ mb: 1 }}>
        Thumbnail re-extract
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Downloads the video again and makes a new thumbnail from it. Reload after a few minutes to see it.
      </Typography>
      {reextract.isSuccess && (
        <Alert severity="success" sx={{ mb: 2 }}>
          Thumbnail re-extraction started. Reload in a few minutes to see it.
        </Alert>
      )}
      {reextract.isError && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }}>
          {messages.thumbnail.couldNotDownload}
        </Alert>
      )}
      <QueryState query={videos} loadingLabel="Loading videos">
        {(data) => (
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
            <TextField
              select
              id="reextract-video"
              label="Video"
              value={selected}
              onChange={(e) => setSelected(Number(e.target.value))}
              sx={{ maxWidth: { sm: 420 } }}
            >
              {data.map((v) => (
                <MenuItem key={v.video_id} value={v.video_id}>
                  Week {v.week_number}, day {v.day_number}: {v.title}
                </MenuItem>
              ))}
            </TextField>
            <Button
              variant="outlined"
              disabled={!video}
              onClick={() => setConfirming(true)}
              sx={{ flexShrink: 0 }}
            >
              Re-extract thumbnail
            </Button>
          </Stack>
        )}
      </QueryState>
      {confirming && video && (
        <Confirm
          title="Re-extract this thumbnail?"
          action="Re-extract"
          busy={reextract.isPending}
          onClose={() => setConfirming(false)}
          onConfirm={() => reextract.mutate(video, { onSettled: () => setConfirming(false) })}
        >
          The video of week {video.week_number}, day {video.day_number} is downloaded again and a new
          thumbnail is made from it.
        </Confirm>
      )}
    </Box>
  );
}

/** Advanced settings tab (spec §2, §4): move to week/day, purge cache, thumbnail re-extract. */
export function AdvancedSettingsTab({ participantId }: { participantId: number }) {
  const progress = useQuery(participantProgressQuery(participantId));
  const sets = useQuery(videoSetChoicesQuery);
  if (progress.isPending || sets.isPending) return <PageLoading label="Loading settings" />;
  if (progress.isError || sets.isError)
    return <Alert severity="error">{(progress.error ?? sets.error)!.message}</Alert>;
  if (!progress.data) return <Alert severity="info">This participant has no video set yet.</Alert>;
  const set = sets.data.find((s) => s.fitness_video_set_id === progress.data!.fitness_video_set_id);
  if (!set) return <Alert severity="error">{messages.videoSet.notFound}</Alert>;
  return (
    <Stack spacing={3} divider={<Divider flexItem />}>
      <MoveForm
        key={progress.data.fitness_participation_progress_id}
        participantId={participantId}
        progress={progress.data}
        set={set}
      />
      <PurgeCache participantId={participantId} />
      <ThumbnailReextract videoSetId={set.fitness_video_set_id} />
    </Stack>
  );
}
