import AddIcon from '@mui/icons-material/Add';
import VideoLibraryOutlinedIcon from '@mui/icons-material/VideoLibraryOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { VideoSet } from '@pathway/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { RowActions } from '../../components/RowActions';
import { videoSetsQuery } from './api';
import { AddVideoSetDialog, DeleteVideoSetDialog, EditVideoSetDialog } from './VideoSetDialogs';

type OpenDialog =
  | { kind: 'add' }
  | { kind: 'edit'; set: VideoSet }
  | { kind: 'delete'; set: VideoSet }
  | null;

const columns = ['Set ID', 'Name', 'Number of Weeks', 'Videos per week', 'Added', 'Actions'];

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

      <QueryState query={sets} loadingLabel="Loading video sets">
        {(data) => (
          <TableContainer component={Paper} variant="outlined">
            <Table aria-label="Video sets" sx={{ minWidth: 720 }}>
              <TableHead>
                <TableRow>
                  {columns.map((column) => (
                    <TableCell
                      key={column}
                      align={column === 'Actions' ? 'right' : 'left'}
                      sx={{ whiteSpace: 'nowrap' }}
                    >
                      {column}
                    </TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                {data.map((set) => (
                  <TableRow key={set.fitness_video_set_id} hover>
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
                    </RowActions>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
            {data.length === 0 && (
              <Box sx={{ p: 3 }}>
                <Typography>No video sets yet. Add one to start building a programme.</Typography>
              </Box>
            )}
          </TableContainer>
        )}
      </QueryState>

      {dialog?.kind === 'add' && <AddVideoSetDialog onClose={close} />}
      {dialog?.kind === 'edit' && <EditVideoSetDialog set={dialog.set} onClose={close} />}
      {dialog?.kind === 'delete' && <DeleteVideoSetDialog set={dialog.set} onClose={close} />}
    </>
  );
}
