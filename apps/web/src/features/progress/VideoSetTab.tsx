import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { messages, type ParticipationProgress } from '@pathway/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { PageLoading } from '../../components/PageLoading';
import { formatDate } from '../../lib/dates';
import { participantProgressQuery } from '../../lib/participantProgress';
import { useChooseVideoSet, videoSetChoicesQuery, type VideoSetChoice } from './api';

const describeSet = (set: VideoSetChoice) =>
  `${set.set_name} (${set.number_of_weeks} ${set.number_of_weeks === 1 ? 'week' : 'weeks'}, ${set.videos_in_week} ${set.videos_in_week === 1 ? 'video' : 'videos'} a week)`;

/**
 * Video Set tab (spec §2, §4): a participant without progress is prompted to choose a set;
 * choosing another set for one with progress resets it, after 'Are you sure?'.
 */
export function VideoSetTab({ participantId }: { participantId: number }) {
  const progress = useQuery(participantProgressQuery(participantId));
  const sets = useQuery(videoSetChoicesQuery);
  const choose = useChooseVideoSet(participantId);
  const [selected, setSelected] = useState<number | ''>('');
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState(false);

  if (progress.isPending || sets.isPending) return <PageLoading label="Loading the video set" />;
  if (progress.isError || sets.isError) {
    return <Alert severity="error">{(progress.error ?? sets.error)!.message}</Alert>;
  }
  const current: ParticipationProgress | null = progress.data;
  const currentSet = current
    ? sets.data.find((s) => s.fitness_video_set_id === current.fitness_video_set_id)
    : undefined;
  const choices = sets.data.filter((s) => s.fitness_video_set_id !== current?.fitness_video_set_id);

  const submit = () => {
    if (selected === '') return;
    setDone(false);
    choose.mutate(
      { progress: current, videoSetId: selected },
      {
        onSuccess: () => {
          setDone(true);
          setSelected('');
        },
        onSettled: () => setConfirming(false),
      },
    );
  };

  return (
    <Stack spacing={2}>
      {done && <Alert severity="success">{messages.progress.associated}</Alert>}
      {choose.error && (
        <Alert severity="error" role="alert">
          {choose.error.message}
        </Alert>
      )}
      {current ? (
        <Box>
          <Typography component="h3" variant="h3" sx={{ mb: 1 }}>
            Current video set
          </Typography>
          <Typography>
            {currentSet ? describeSet(currentSet) : `Set ${current.fitness_video_set_id}`}
          </Typography>
          <Typography color="text.secondary">Started {formatDate(current.started_date)}</Typography>
        </Box>
      ) : (
        <Alert severity="info">
          This participant has no video set yet. Select one to start their programme.
        </Alert>
      )}

      {sets.data.length === 0 ? (
        <Alert severity="warning">There are no video sets yet. Add one on the Video Sets page.</Alert>
      ) : (
        <Box
          component="form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            if (current) setConfirming(true);
            else submit();
          }}
        >
          <Stack spacing={2}>
            {current && <Alert severity="warning">{messages.progress.overrideWarning}</Alert>}
            <TextField
              select
              id="participant-video-set"
              label={current ? 'Change video set to' : 'Video set'}
              value={selected}
              onChange={(event) => setSelected(Number(event.target.value))}
            >
              {choices.map((set) => (
                <MenuItem key={set.fitness_video_set_id} value={set.fitness_video_set_id}>
                  {describeSet(set)}
                </MenuItem>
              ))}
            </TextField>
            <Box>
              <Button
                type="submit"
                variant="contained"
                disabled={selected === ''}
                loading={choose.isPending && !confirming}
              >
                {current ? 'Change video set' : 'Associate video set'}
              </Button>
            </Box>
          </Stack>
        </Box>
      )}

      {confirming && (
        <Dialog
          open
          onClose={() => setConfirming(false)}
          aria-labelledby="reset-progress-title"
          aria-describedby="reset-progress-text"
        >
          <DialogTitle id="reset-progress-title">{messages.progress.confirm}</DialogTitle>
          <DialogContent>
            <DialogContentText id="reset-progress-text">
              {messages.progress.overrideWarning} The participant starts again at week 1, day 1.
            </DialogContentText>
          </DialogContent>
          <DialogActions sx={{ px: 3, py: 2 }}>
            <Button onClick={() => setConfirming(false)}>Cancel</Button>
            <Button variant="contained" color="error" onClick={submit} loading={choose.isPending}>
              Reset progress
            </Button>
          </DialogActions>
        </Dialog>
      )}
    </Stack>
  );
}
