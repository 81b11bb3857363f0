import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { messages, videoText, type Video, type VideoSet, type VideoText } from '@pathway/contract';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useForm } from 'react-hook-form';
import { FormTextField } from '../../components/form/FormTextField';
import { WarningAlert } from '../../components/WarningAlert';
import { ConfirmDeleteDialog } from '../../components/ConfirmDeleteDialog';
import { useAddVideo, useDeleteVideo, useUpdateVideo, videoDeletionImpactQuery } from './api';
import { VideoUploader, type UploadedFile } from './VideoUploader';

function TitleAndDescription({
  control,
  idPrefix,
}: {
  control: ReturnType<typeof useForm<VideoText>>['control'];
  idPrefix: string;
}) {
  return (
    <>
      <FormTextField control={control} name="title" id={`${idPrefix}-title`} label="Title" required />
      <FormTextField
        control={control}
        name="description"
        id={`${idPrefix}-description`}
        label="Description"
        required
        multiline
        minRows={3}
        autoComplete={undefined}
        hint="What the participant does in this video"
      />
    </>
  );
}

/** Add Video (spec §2): title, the set's name (read only), description and the uploader. */
export function AddVideoDialog({
  set,
  week,
  day,
  onClose,
}: {
  set: VideoSet;
  week: number;
  day: number;
  onClose: () => void;
}) {
  const add = useAddVideo(set.fitness_video_set_id);
  const [upload, setUpload] = useState<UploadedFile | null>(null);
  const onUpload = useCallback((file: UploadedFile | null) => setUpload(file), []);
  const { control, handleSubmit } = useForm<VideoText>({
    resolver: zodResolver(videoText),
    defaultValues: { title: '', description: '' },
  });
  const save = handleSubmit((text) => {
    if (!upload) return;
    add.mutate(
      {
        ...text,
        file_location_path: upload.location,
        file_size: upload.fileSize,
        week_number: week,
        day_number: day,
      },
      { onSuccess: onClose },
    );
  });

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="add-video-title">
      <DialogTitle id="add-video-title">Add Video</DialogTitle>
      <Box component="form" noValidate onSubmit={save}>
        <DialogContent dividers>
          {add.error && <WarningAlert message={add.error.message} />}
          <Stack spacing={2.5}>
            <Typography variant="body2" color="text.secondary">
              Week {week}, day {day}
            </Typography>
            <TitleAndDescription control={control} idPrefix="new-video" />
            <TextField
              id="add-video-set-name"
              label="Video set"
              value={set.set_name}
              slotProps={{ htmlInput: { readOnly: true } }}
            />
            <VideoUploader onChange={onUpload} />
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, py: 2 }}>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={!upload} loading={add.isPending}>
            Save
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}

/**
 * The player (spec §2): title, the video, its description, and Remove, Edit, Close. Edit changes
 * title and description; 'Replace Video?' reveals the uploader for a new file.
 */
export function VideoPlayerDialog({
  video,
  onRemove,
  onClose,
}: {
  video: Video;
  onRemove: () => void;
  onClose: () => void;
}) {
  const [editing, setEditing] = useState(false);
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby="video-player-title">
      <DialogTitle id="video-player-title">{video.title}</DialogTitle>
      {editing ? (
        <EditVideoForm video={video} onDone={() => setEditing(false)} />
      ) : (
        <>
          <DialogContent dividers>
            <Box
              component="video"
              controls
              preload="metadata"
              src={video.file_location_path}
              poster={video.poster_url ?? undefined}
              aria-label={`Video: ${video.title}`}
              sx={{
                display: 'block',
                width: '100%',
                maxHeight: '60vh',
                bgcolor: 'common.black',
                borderRadius: 1,
              }}
            />
            <Typography sx={{ mt: 2, whiteSpace: 'pre-line' }}>{video.description}</Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              Week {video.week_number}, day {video.day_number}
              {video.video_length !== '0' && ` · ${formatLength(Number(video.video_length))}`}
            </Typography>
          </DialogContent>
          <DialogActions sx={{ px: 3, py: 2 }}>
            <Button color="error" onClick={onRemove} sx={{ mr: 'auto' }}>
              Remove
            </Button>
            <Button onClick={() => setEditing(true)}>Edit</Button>
            <Button variant="contained" onClick={onClose}>
              Close
            </Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}

export function formatLength(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const s = Math.round(seconds % 60);
  return `${m}:${String(s).padStart(2, '0')}`;
}

function EditVideoForm({ video, onDone }: { video: Video; onDone: () => void }) {
  const update = useUpdateVideo(video.fitness_video_set_id);
  const [replace, setReplace] = useState(false);
  const [upload, setUpload] = useState<UploadedFile | null>(null);
  const onUpload = useCallback((file: UploadedFile | null) => setUpload(file), []);
  const { control, handleSubmit } = useForm<VideoText>({
    resolver: zodResolver(videoText),
    defaultValues: { title: video.title, description: video.description },
  });
  const save = handleSubmit((text) =>
    update.mutate(
      {
        videoId: video.video_id,
        changes: {
          ...text,
          ...(replace &&
            upload && { replacement: { file_location_path: upload.location, file_size: upload.fileSize } }),
        },
      },
      { onSuccess: onDone },
    ),
  );
  return (
    <Box component="form" noValidate onSubmit={save}>
      <DialogContent dividers>
        {update.error && <WarningAlert message={update.error.message} />}
        <Stack spacing={2.5}>
          <TitleAndDescription control={control} idPrefix="change-video" />
          <FormControlLabel
            control={<Switch checked={replace} onChange={(event) => setReplace(event.target.checked)} />}
            label="Replace Video?"
          />
          {replace && (
            <VideoUploader onChange={onUpload} label="New video file (its thumbnail is made again)" />
          )}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 2 }}>
        <Button onClick={onDone}>Cancel</Button>
        <Button type="submit" variant="contained" disabled={replace && !upload} loading={update.isPending}>
          Save
        </Button>
      </DialogActions>
    </Box>
  );
}

/** Delete video (spec §2, §8): Close and Delete, the server's refusal in a box. */
export function DeleteVideoDialog({
  video,
  onDeleted,
  onClose,
}: {
  video: Video;
  onDeleted: () => void;
  onClose: () => void;
}) {
  const remove = useDeleteVideo(video.fitness_video_set_id);
  const impact = useQuery(videoDeletionImpactQuery(video.video_id));
  const onDay = impact.data?.participants_on_day ?? 0;
  return (
    <ConfirmDeleteDialog
      id="delete-video"
      title="Delete video"
      text={
        <>
          <strong>{video.title}</strong> (week {video.week_number}, day {video.day_number}) is deleted
          immediately, with participants&apos; records of having watched it. Its file is removed from storage
          unless another video uses it. This cannot be undone.
          {onDay > 0 &&
            (impact.data?.refused ? (
              <>
                {' '}
                <strong>{messages.video.deleteNoEarlierDay}</strong>
              </>
            ) : (
              <>
                {' '}
                <strong>
                  {messages.video.deleteMovesParticipants(onDay)} (week {impact.data?.moved_to?.week}, day{' '}
                  {impact.data?.moved_to?.day})
                </strong>
              </>
            ))}
        </>
      }
      error={remove.error}
      pending={remove.isPending}
      onConfirm={() => remove.mutate(video.video_id, { onSuccess: onDeleted })}
      onClose={onClose}
      cancelLabel="Close"
    />
  );
}
