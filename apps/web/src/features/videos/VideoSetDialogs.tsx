import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import {
  createVideoSetBody,
  updateVideoSetBody,
  type VideoSet,
  type VideoSetDeletionImpact,
} from '@pathway/contract';
import { useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { FormDialog } from '../../components/form/FormDialog';
import { FormTextField } from '../../components/form/FormTextField';
import { ConfirmDeleteDialog } from '../../components/ConfirmDeleteDialog';
import { QueryError } from '../../components/QueryState';
import { deletionImpactQuery, useCreateVideoSet, useDeleteVideoSet, useRenameVideoSet } from './api';

/** 'Add new video set' (spec §2, §5): set name, number of weeks, videos per week. */
export function AddVideoSetDialog({ onClose }: { onClose: () => void }) {
  const create = useCreateVideoSet();
  const { control, handleSubmit } = useForm({
    resolver: zodResolver(createVideoSetBody),
    // Numbers are typed as text; the contract's schema turns them into whole numbers or refuses them.
    defaultValues: { set_name: '', number_of_weeks: '', videos_in_week: '' },
  });
  const save = handleSubmit((body) => create.mutate(body, { onSuccess: onClose }));

  return (
    <FormDialog
      id="add-video-set"
      title="Add new video set"
      onClose={onClose}
      onSubmit={save}
      pending={create.isPending}
      error={create.error}
    >
      <Stack spacing={2.5}>
        <FormTextField
          control={control}
          name="set_name"
          id="add-video-set-name"
          label="Set Name"
          required
          autoFocus
        />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <FormTextField
            control={control}
            name="number_of_weeks"
            id="add-video-set-weeks"
            label="Number Of Weeks"
            type="number"
            required
            fullWidth
            autoComplete={undefined}
            slotProps={{ htmlInput: { min: 1, step: 1, inputMode: 'numeric' } }}
            hint="A whole number from 1"
          />
          <FormTextField
            control={control}
            name="videos_in_week"
            id="add-video-set-per-week"
            label="Videos Per Week"
            type="number"
            required
            fullWidth
            autoComplete={undefined}
            slotProps={{ htmlInput: { min: 1, max: 7, step: 1, inputMode: 'numeric' } }}
            hint="Exercise days a week, 1 to 7"
          />
        </Stack>
      </Stack>
    </FormDialog>
  );
}

/** Edit a set: its name only (weeks and days are what participants' progress is measured on). */
export function EditVideoSetDialog({ set, onClose }: { set: VideoSet; onClose: () => void }) {
  const rename = useRenameVideoSet();
  const { control, handleSubmit } = useForm({
    resolver: zodResolver(updateVideoSetBody),
    defaultValues: { set_name: set.set_name },
  });
  const save = handleSubmit((body) =>
    rename.mutate({ id: set.fitness_video_set_id, ...body }, { onSuccess: onClose }),
  );

  return (
    <FormDialog
      id="edit-video-set"
      title="Edit video set"
      onClose={onClose}
      onSubmit={save}
      pending={rename.isPending}
      error={rename.error}
    >
      <FormTextField
        control={control}
        name="set_name"
        id="edit-video-set-name"
        label="Set Name"
        required
        fullWidth
        autoFocus
        hint={`${set.number_of_weeks} weeks, ${set.videos_in_week} videos per week`}
      />
    </FormDialog>
  );
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What deleting the set will really do, from the server's count (spec §2 delete warning). */
export function deletionWarning(impact: VideoSetDeletionImpact): string[] {
  return [
    'The set is deleted immediately.',
    impact.participants > 0
      ? `${plural(impact.participants, 'participant', 'participants')} on this programme lose all their progress and their record of videos watched.`
      : 'No participant is on this programme.',
    impact.videos > 0
      ? `${plural(impact.videos, 'video is', 'videos are')} deleted. ${plural(impact.files_deleted, 'video file', 'video files')} used only by this set ${impact.files_deleted === 1 ? 'is' : 'are'} removed from storage and become${impact.files_deleted === 1 ? 's' : ''} inaccessible.` +
        (impact.files_kept > 0
          ? ` ${plural(impact.files_kept, 'file', 'files')} also used in another set ${impact.files_kept === 1 ? 'stays' : 'stay'}.`
          : '')
      : 'The set has no videos.',
    'This cannot be undone.',
  ];
}

export function DeleteVideoSetDialog({ set, onClose }: { set: VideoSet; onClose: () => void }) {
  const remove = useDeleteVideoSet();
  const impact = useQuery(deletionImpactQuery(set.fitness_video_set_id));
  return (
    <ConfirmDeleteDialog
      id="delete-video-set"
      title="Delete video set"
      maxWidth="sm"
      text={
        <>
          Delete <strong>{set.set_name}</strong>?
        </>
      }
      error={remove.error}
      pending={remove.isPending}
      confirmDisabled={!impact.data}
      onConfirm={() => remove.mutate(set.fitness_video_set_id, { onSuccess: onClose })}
      onClose={onClose}
    >
      {impact.isPending ? (
        <CircularProgress size={24} aria-label="Counting what will be deleted" />
      ) : impact.isError ? (
        <QueryError query={impact} sx={{}} />
      ) : (
        <Alert severity="warning" icon={false}>
          {deletionWarning(impact.data).map((line) => (
            <Box key={line} component="p" sx={{ m: 0, mb: 0.5 }}>
              {line}
            </Box>
          ))}
        </Alert>
      )}
    </ConfirmDeleteDialog>
  );
}
