import PersonAddAlt1Icon from '@mui/icons-material/PersonAddAlt1';
import UploadFileOutlinedIcon from '@mui/icons-material/UploadFileOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import { DataGrid } from '@mui/x-data-grid';
import { Suspense, lazy, useCallback, useEffect, useMemo, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import {
  PARTICIPANT_STATUS_FILTERS,
  PARTICIPANT_STATUS_LABELS,
  apiRoutes,
  type ParticipantStatusFilter,
} from '@pathway/contract';
import { PageHeader } from '../../components/PageHeader';
import { SiteSelect } from '../../components/SiteSelect';
import { useCanCall, useFieldAccess } from '../../lib/session';
import { useUpdateParticipant } from './api';
import { useParticipantExport } from './ExportParticipants';
import {
  ParticipantDialogs,
  type OpenParticipantDialog,
  type ParticipantDialogKind,
} from './list/ParticipantDialogs';
import { loadDateOfBirthEditCell, participantColumns } from './list/participantColumns';
import { toRow, type GridRow } from './list/gridRow';
import { PAGE_SIZES, useParticipantListState } from './list/useParticipantListState';
import { useGridFocusReturn } from './list/useGridFocusReturn';
import { STATE_LABELS } from './tracking';

const NoticeSnackbar = lazy(async () => ({
  default: (await import('../../components/NoticeSnackbar')).NoticeSnackbar,
}));

/** Participants (spec §2): the list, with its filter, search, sort, inline edits and the row modals. */
export function ParticipantsPage() {
  const canCall = useCanCall();
  // Which fields the list answers is the server's per-field rule, not a route's permission.
  const opens = useFieldAccess();
  const seesIdentifiable = opens('identifiable');
  const listState = useParticipantListState();
  const { state, list, participantOf } = listState;
  const { apiRef, returnFocus } = useGridFocusReturn();
  const [dialog, setDialog] = useState<OpenParticipantDialog>(null);
  const [editError, setEditError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [noticeLoaded, setNoticeLoaded] = useState(false);
  const update = useUpdateParticipant();
  useEffect(() => {
    if (seesIdentifiable) void loadDateOfBirthEditCell();
  }, [seesIdentifiable]);

  const openDialog = useCallback(
    (kind: ParticipantDialogKind, participantId: number) => {
      const participant = participantOf(participantId);
      if (participant) setDialog({ kind, participant });
    },
    [participantOf],
  );
  function closeDialog(options: { rowRemoved?: boolean } = {}) {
    const id = dialog?.participant.participant_id;
    setDialog(null);
    returnFocus(id, options);
  }

  const columns = useMemo(
    () => participantColumns({ opens, canCall, openDialog }),
    [opens, canCall, openDialog],
  );

  /**
   * A refused edit (empty, out of range, or refused by the server) puts the old value back and
   * says why (spec §2, §8): answering the old row ends the edit with nothing changed.
   */
  async function processRowUpdate(newRow: GridRow, oldRow: GridRow): Promise<GridRow> {
    try {
      // The edit rules bring the contract's schemas: loaded with the first edit, not the list.
      const { inlineChange } = await import('./cellEdit');
      const changes = inlineChange(newRow, oldRow);
      if (!changes) return oldRow;
      const updated = await update.mutateAsync({ id: oldRow.participant_id, changes });
      setEditError(null);
      return toRow(updated);
    } catch (error) {
      setEditError(error instanceof Error ? error.message : String(error));
      return oldRow;
    }
  }

  const exporter = useParticipantExport({
    state,
    status: listState.status,
    sort: listState.sort,
    order: listState.order,
    q: listState.search || undefined,
    site_id: listState.site.siteId,
  });
  // Phones and tablets have no double-click: the hint would describe something they cannot do.
  const canDoubleClick = useMediaQuery('(hover: hover) and (pointer: fine) and (min-width: 600px)');

  return (
    <>
      <PageHeader
        title="Participants"
        actions={
          <>
            {exporter.button}
            {canCall(apiRoutes.participants.import) && (
              <Button component={RouterLink} to="/participants/import" startIcon={<UploadFileOutlinedIcon />}>
                Import CSV
              </Button>
            )}
            {canCall(apiRoutes.participants.create) && (
              <Button
                component={RouterLink}
                to="/addparticipant"
                variant="contained"
                startIcon={<PersonAddAlt1Icon />}
              >
                Add Participant
              </Button>
            )}
          </>
        }
      >
        {seesIdentifiable
          ? canDoubleClick
            ? 'Everyone referred to the programme. Double-click a name, date of birth, email or phone number to change it.'
            : 'Everyone referred to the programme. Use the edit action of a row to change their details.'
          : 'Everyone referred to the programme. Contact details are shown to full-access admins only.'}
      </PageHeader>

      {/* Not QueryState: the grid stays, with its own loading overlay, and the page's first
          download holds no shared module it can do without (the bundle budget, bench/sys-bundle.ts). */}
      {list.isError && (
        <Alert
          severity="error"
          sx={{ mb: 2 }}
          action={
            <Button color="inherit" onClick={() => void list.refetch()}>
              Try again
            </Button>
          }
        >
          {list.error.message}
        </Alert>
      )}
      {exporter.status}
      <Stack direction="row" sx={{ mb: 2, gap: 2, flexWrap: 'wrap', alignItems: 'flex-start' }}>
        <TextField
          select
          size="small"
          label="Status"
          // The whole width, as before sites, unless the site selector stands beside it.
          fullWidth={listState.site.sites.length <= 1}
          value={listState.status}
          onChange={(event) => listState.setStatus(event.target.value as ParticipantStatusFilter)}
          sx={{ minWidth: 220 }}
          helperText="Discharged participants are completed or withdrawn"
        >
          {PARTICIPANT_STATUS_FILTERS.map((value) => (
            <MenuItem key={value} value={value}>
              {value === 'all' ? 'All' : PARTICIPANT_STATUS_LABELS[value]}
            </MenuItem>
          ))}
        </TextField>
        <SiteSelect filter={listState.site} />
      </Stack>
      {state && (
        <Alert
          severity="info"
          icon={false}
          sx={{ mb: 2 }}
          action={
            <Button color="inherit" size="small" onClick={listState.clearState}>
              Clear filter
            </Button>
          }
        >
          {`Showing: ${STATE_LABELS[state]}`}
        </Alert>
      )}
      {editError && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }} onClose={() => setEditError(null)}>
          {editError}
        </Alert>
      )}

      <Paper variant="outlined" sx={{ height: 'max(600px, calc(100vh - 300px))', minHeight: 600 }}>
        <DataGrid<GridRow>
          apiRef={apiRef}
          label="Participants"
          rows={listState.rows}
          columns={columns}
          getRowId={(row) => row.participant_id}
          loading={list.isFetching}
          paginationMode="server"
          sortingMode="server"
          filterMode="server"
          rowCount={listState.rowCount}
          pageSizeOptions={PAGE_SIZES}
          paginationModel={listState.pagination}
          onPaginationModelChange={listState.onPaginationModelChange}
          sortModel={listState.sortModel}
          onSortModelChange={listState.onSortModelChange}
          sortingOrder={['asc', 'desc']}
          filterModel={listState.filterModel}
          onFilterModelChange={listState.onFilterModelChange}
          processRowUpdate={processRowUpdate}
          // A discharged participant's record is read-only until re-referral (the server refuses too).
          isCellEditable={(params: { row: GridRow }) => params.row.status === 'active'}
          disableRowSelectionOnClick
          // Every column of a row is rendered even when the grid is narrower than the row, so the
          // actions are always reachable by keyboard and screen reader.
          columnBufferPx={2000}
          showToolbar
          slotProps={{
            toolbar: {
              // The grid's own export holds the page shown only; Export CSV above holds the whole list.
              csvOptions: { disableToolbarButton: true },
              printOptions: { disableToolbarButton: true },
              quickFilterProps: { debounceMs: 400 },
            },
            loadingOverlay: { variant: 'linear-progress', noRowsVariant: 'skeleton' },
          }}
          localeText={{ noRowsLabel: 'No participants', noResultsOverlayLabel: 'No participants match' }}
        />
      </Paper>

      {/* Loaded with the first confirmation: nothing to show at first paint. */}
      {noticeLoaded && (
        <Suspense fallback={null}>
          <NoticeSnackbar notice={notice} onClose={() => setNotice(null)} />
        </Suspense>
      )}

      <ParticipantDialogs
        dialog={dialog}
        onClose={closeDialog}
        onDone={(message) => {
          closeDialog();
          setNotice(message);
          setNoticeLoaded(true);
          void list.refetch();
        }}
      />
    </>
  );
}
