import AddIcon from '@mui/icons-material/Add';
import FactCheckOutlinedIcon from '@mui/icons-material/FactCheckOutlined';
import VideoLibraryOutlinedIcon from '@mui/icons-material/VideoLibraryOutlined';
import Button from '@mui/material/Button';
import TableCell from '@mui/material/TableCell';
import type { VideoSet } from '@pathway/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { ACTIONS_COLUMN, PagedTable } from '../../components/PagedTable';
import { RowActions } from '../../components/RowActions';
import { videoSetsQuery } from './api';
import { AddVideoSetDialog, DeleteVideoSetDialog, EditVideoSetDialog } from './VideoSetDialogs';

type OpenDialog =
  | { kind: 'add' }
  | { kind: 'edit'; set: VideoSet }
  | { kind: 'delete'; set: VideoSet }
  | null;

const columns = ['Set ID', 'Name', 'Number of Weeks', 'Videos per week', 'Added', ACTIONS_COLUMN];

export function VideoSetsPage() {
  const sets = useQuery(videoSetsQuery);
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const close = () => setDialog(null);

  return (
    <>
      <PageHeader
        title="Video Sets"
        actions={
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setDialog({ kind: 'add' })}>
            Add new video set
          </Button>
        }
      >
        Programmes of exercise videos: one video for each exercise day of each week.
      </PageHeader>

      <PagedTable
        query={sets}
        loadingLabel="Loading video sets"
        label="Video sets"
        minWidth={720}
        columns={columns}
        rowKey={(set) => set.fitness_video_set_id}
        empty="No video sets yet. Add one to start building a programme."
        renderRow={(set) => (
          <>
            <TableCell>{set.fitness_video_set_id}</TableCell>
            <TableCell sx={{ overflowWrap: 'anywhere', minWidth: 160 }}>{set.set_name}</TableCell>
            <TableCell>{set.number_of_weeks}</TableCell>
            <TableCell>{set.videos_in_week}</TableCell>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{set.created_at.slice(0, 10)}</TableCell>
            <RowActions
              name={set.set_name}
              onEdit={() => setDialog({ kind: 'edit', set })}
              onDelete={() => setDialog({ kind: 'delete', set })}
            >
              <Button
                component={RouterLink}
                to={`/video/${set.fitness_video_set_id}`}
                size="small"
                startIcon={<VideoLibraryOutlinedIcon />}
                aria-label={`Manage Videos of ${set.set_name}`}
                sx={{ mr: 1 }}
              >
                Manage Videos
              </Button>
              <Button
                component={RouterLink}
                to={`/videoset/${set.fitness_video_set_id}/assessments`}
                size="small"
                startIcon={<FactCheckOutlinedIcon />}
                aria-label={`Assessments of ${set.set_name}`}
                sx={{ mr: 1 }}
              >
                Assessments
              </Button>
            </RowActions>
          </>
        )}
      />

      {dialog?.kind === 'add' && <AddVideoSetDialog onClose={close} />}
      {dialog?.kind === 'edit' && <EditVideoSetDialog set={dialog.set} onClose={close} />}
      {dialog?.kind === 'delete' && <DeleteVideoSetDialog set={dialog.set} onClose={close} />}
    </>
  );
}
