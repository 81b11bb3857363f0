/* eslint-disable react-hooks/refs, react-hooks/set-state-in-effect, react-hooks/preserve-manual-memoization --
 * React Compiler diagnostics: this page keeps render-time caches in refs (the keyset cursors of the
 * pages reached, the last row count, the rows shown) on purpose, and the console does not run the
 * compiler. Splitting the page into hooks (issue 15, step 7) is where these go. */
import AssignmentOutlinedIcon from '@mui/icons-material/AssignmentOutlined';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import FastForwardOutlinedIcon from '@mui/icons-material/FastForwardOutlined';
import PersonAddAlt1Icon from '@mui/icons-material/PersonAddAlt1';
import SmsOutlinedIcon from '@mui/icons-material/SmsOutlined';
import VisibilityOutlinedIcon from '@mui/icons-material/VisibilityOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Snackbar from '@mui/material/Snackbar';
import useMediaQuery from '@mui/material/useMediaQuery';
import {
  DataGrid,
  GridActionsCellItem,
  getGridSingleSelectOperators,
  gridTabIndexCellSelector,
  useGridApiRef,
  type GridColDef,
  type GridFilterModel,
  type GridPaginationModel,
  type GridRowParams,
  type GridSortModel,
} from '@mui/x-data-grid';
import {
  NO_DEVICE,
  PARTICIPANT_SORTS,
  adherenceState,
  hasContactData,
  stateFromHash,
  type AdherenceState,
  type ParticipantBasic,
  type ParticipantSort,
  type ParticipantView,
} from '@pathway/contract';
import { useQuery } from '@tanstack/react-query';
import { format, isValid, parseISO } from 'date-fns';
import { Suspense, lazy, useEffect, useMemo, useRef, useState } from 'react';
import { Link as RouterLink, useLocation, useNavigate, useSearchParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { contactAgo, contactExact } from '../../lib/contactTime';
import { useCan } from '../../lib/session';
import { participantListQuery, useUpdateParticipant } from './api';
import { inlineChange, type GridParticipant } from './cellEdit';
import { useParticipantExport } from './ExportParticipants';
import { STATE_LABELS, TrackingChip, trackingText } from './tracking';

// The dialogs load when one is opened: with their forms, date picker and validation they would
// otherwise double what the list itself downloads.
const ParticipantDetailsDialog = lazy(async () => ({
  default: (await import('./ParticipantDetailsDialog')).ParticipantDetailsDialog,
}));
const EditParticipantDialog = lazy(async () => ({
  default: (await import('./EditParticipantDialog')).EditParticipantDialog,
}));
const EditReferralDialog = lazy(async () => ({
  default: (await import('./EditReferralDialog')).EditReferralDialog,
}));
const ProgressForwardDialog = lazy(async () => ({
  default: (await import('./progress/ProgressForwardDialog')).ProgressForwardDialog,
}));
const MessageUserDialog = lazy(async () => ({
  default: (await import('./MessageUserDialog')).MessageUserDialog,
}));
const DeleteParticipantDialog = lazy(async () => ({
  default: (await import('./DeleteParticipantDialog')).DeleteParticipantDialog,
}));
// The date-of-birth editor brings the date pickers; it is fetched once the page shows a full-access
// admin's grid, so it is there by the time they double-click a date.
const loadDateOfBirthEditCell = () => import('./DateOfBirthEditCell');
const DateOfBirthEditCell = lazy(async () => ({
  default: (await loadDateOfBirthEditCell()).DateOfBirthEditCell,
}));

/** A grid row: what the admin may see; the date of birth as a Date for the date column. */
type GridRow = ParticipantBasic & Partial<Omit<GridParticipant, keyof ParticipantBasic>>;

type OpenDialog = {
  kind: 'details' | 'edit' | 'referral' | 'progress' | 'message' | 'delete';
  participant: ParticipantView;
} | null;

const PAGE_SIZES = [10, 25, 50, 100];
/** The console asks for 100 rows at a time (spec §9). */
const DEFAULT_PAGE_SIZE = 100;

function toRow(p: ParticipantView): GridRow {
  if (!hasContactData(p)) return p;
  const dob = parseISO(p.date_of_birth);
  return { ...p, date_of_birth: isValid(dob) ? dob : null };
}

/** The filter of the address: ?state=..., or the hash reading of spec §2 (#onTrack, ...). */
function stateOfLocation(search: URLSearchParams, hash: string): AdherenceState | undefined {
  const fromQuery = adherenceState.safeParse(search.get('state'));
  if (fromQuery.success) return fromQuery.data;
  const fromHash = hash.replace(/^#/, '');
  return fromHash ? stateFromHash(fromHash) : undefined;
}

function isSortable(field: string): field is ParticipantSort {
  return (PARTICIPANT_SORTS as readonly string[]).includes(field);
}

const trackingOperators = getGridSingleSelectOperators().filter((op) => op.value === 'is');

export function ParticipantsPage() {
  const can = useCan();
  const seesIdentifiable = can('participants.identifiable');
  const navigate = useNavigate();
  const location = useLocation();
  const [searchParams] = useSearchParams();
  const state = stateOfLocation(searchParams, location.hash);

  const [pagination, setPagination] = useState<GridPaginationModel>({ page: 0, pageSize: DEFAULT_PAGE_SIZE });
  const [sortModel, setSortModel] = useState<GridSortModel>([]);
  const [search, setSearch] = useState('');
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const [editError, setEditError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const update = useUpdateParticipant();
  const apiRef = useGridApiRef();
  useEffect(() => {
    if (seesIdentifiable) void loadDateOfBirthEditCell();
  }, [seesIdentifiable]);

  /**
   * Keyboard focus goes back into the grid when a modal closes: to the row's actions, or to the
   * Actions column header when the row has gone (the modals open from that column, so its header
   * is rendered; a header scrolled out of view is not, and would leave nothing in the tab order).
   * The grid's own focus state follows, so it always keeps one element in the tab order.
   */
  function closeDialog(options: { rowRemoved?: boolean } = {}) {
    const id = dialog?.participant.participant_id;
    setDialog(null);
    requestAnimationFrame(() => {
      const api = apiRef.current;
      if (!api) return;
      if (id !== undefined && !options.rowRemoved && api.getRow(id)) api.setCellFocus(id, 'actions');
      else api.setColumnHeaderFocus('actions');
    });
  }

  // When the row holding the grid's tab stop goes (deleted, or another page or search loaded),
  // the grid would keep pointing at it and leave nothing in the tab order; the header of the same
  // column (rendered, as that cell's column was) takes the tab stop instead.
  useEffect(
    () =>
      apiRef.current?.subscribeEvent('rowsSet', () => {
        const api = apiRef.current;
        const cell = api && gridTabIndexCellSelector(apiRef);
        if (!api || !cell || api.getRow(cell.id)) return;
        api.setState((state) => ({
          ...state,
          tabIndex: {
            cell: null,
            columnHeader: { field: cell.field },
            columnHeaderFilter: null,
            columnGroupHeader: null,
          },
        }));
      }),
    [apiRef],
  );

  const sortField = sortModel[0]?.field;
  const sort: ParticipantSort = sortField && isSortable(sortField) ? sortField : 'participant_id';
  const order = sortModel[0]?.sort === 'desc' ? 'desc' : 'asc';

  // Cursors of the pages reached so far, for this filter and sort: the next page is then read by
  // keyset, as fast deep in a long list as at its start.
  const listKey = JSON.stringify([state, sort, order, search, pagination.pageSize]);
  const cursors = useRef({ key: listKey, byPage: new Map<number, string>() });
  if (cursors.current.key !== listKey) cursors.current = { key: listKey, byPage: new Map() };

  const list = useQuery(
    participantListQuery({
      page: pagination.page + 1,
      perPage: pagination.pageSize,
      state,
      sort,
      order,
      q: search || undefined,
      after: cursors.current.byPage.get(pagination.page),
    }),
  );
  const next = list.data?.pagination.nextCursor;
  if (next && !list.isPlaceholderData) cursors.current.byPage.set(pagination.page + 1, next);

  // A filter from the address starts again at page 1.
  useEffect(() => setPagination((p) => ({ ...p, page: 0 })), [state]);

  // The row count stays while a page loads, so the footer does not jump.
  const rowCount = useRef(0);
  if (list.data) rowCount.current = list.data.pagination.total;

  const rows = useMemo(() => (list.data?.data ?? []).map(toRow), [list.data]);
  // The modals take the participant as the server sent it; the columns (and any widths the admin
  // set) do not change with each page.
  const shown = useRef(new Map<number, ParticipantView>());
  shown.current = new Map((list.data?.data ?? []).map((p) => [p.participant_id, p]));

  const filterModel: GridFilterModel = useMemo(
    () => ({
      items: state ? [{ id: 'state', field: 'days_behind', operator: 'is', value: state }] : [],
      quickFilterValues: search ? search.split(' ') : [],
    }),
    [state, search],
  );

  function onFilterModelChange(model: GridFilterModel) {
    const item = model.items.find((i) => i.field === 'days_behind');
    const nextState = adherenceState.safeParse(item?.value);
    const nextSearch = (model.quickFilterValues ?? []).join(' ').trim();
    if (nextSearch !== search) {
      setSearch(nextSearch);
      setPagination((p) => ({ ...p, page: 0 }));
    }
    const wanted = nextState.success ? nextState.data : undefined;
    if (wanted !== state) {
      const params = new URLSearchParams(searchParams);
      if (wanted) params.set('state', wanted);
      else params.delete('state');
      // The hash reading gives way to the explicit filter.
      void navigate(
        { pathname: location.pathname, search: params.toString() ? `?${params}` : '', hash: '' },
        { replace: true },
      );
    }
  }

  /**
   * A refused edit (empty, out of range, or refused by the server) puts the old value back and
   * says why (spec §2, §8): answering the old row ends the edit with nothing changed.
   */
  async function processRowUpdate(newRow: GridRow, oldRow: GridRow): Promise<GridRow> {
    try {
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

  const columns = useMemo((): GridColDef<GridRow>[] => {
    const identifiable: GridColDef<GridRow>[] = seesIdentifiable
      ? [
          {
            field: 'first_name',
            headerName: 'First name',
            minWidth: 130,
            flex: 1,
            editable: true,
            filterable: false,
          },
          {
            field: 'last_name',
            headerName: 'Last name',
            minWidth: 130,
            flex: 1,
            editable: true,
            filterable: false,
          },
          {
            field: 'date_of_birth',
            headerName: 'DOB',
            type: 'date',
            width: 130,
            editable: true,
            filterable: false,
            valueFormatter: (value: Date | null) =>
              value && isValid(value) ? format(value, 'dd/MM/yyyy') : '',
            renderEditCell: (params) => (
              <Suspense fallback={null}>
                <DateOfBirthEditCell {...params} />
              </Suspense>
            ),
          },
          {
            field: 'email',
            headerName: 'Email',
            minWidth: 180,
            flex: 1.2,
            editable: true,
            filterable: false,
            sortable: false,
          },
          {
            field: 'phone_number',
            headerName: 'Phone number',
            minWidth: 150,
            editable: true,
            filterable: false,
            sortable: false,
          },
        ]
      : [];
    return [
      {
        field: 'participant_id',
        headerName: 'ID',
        type: 'number',
        width: 80,
        filterable: false,
        align: 'left',
        headerAlign: 'left',
      },
      // Adherence and the tablet's health first: visible without scrolling on a 1366 px screen.
      {
        field: 'days_behind',
        headerName: 'Tracking',
        type: 'singleSelect',
        width: 240,
        valueOptions: (Object.keys(STATE_LABELS) as AdherenceState[]).map((value) => ({
          value,
          label: STATE_LABELS[value],
        })),
        filterOperators: trackingOperators,
        // The state with its days behind in full; "No programme" (or "No tablet") when there is none.
        valueFormatter: (_value: number, row) => trackingText(row),
        renderCell: ({ row }) => <TrackingChip participant={row} />,
      },
      {
        field: 'tablet_last_contact_at',
        headerName: 'Tablet last in contact',
        width: 150,
        filterable: false,
        // Sorted by the server (never in contact counts as the oldest).
        valueFormatter: (value: string | null) => contactAgo(value),
        renderCell: ({ row }) => (
          <span title={contactExact(row.tablet_last_contact_at)}>
            {contactAgo(row.tablet_last_contact_at)}
          </span>
        ),
      },
      ...identifiable,
      {
        field: 'gender',
        headerName: 'Gender',
        width: 100,
        filterable: false,
        sortable: false,
        valueFormatter: (value: string | null) => (value ? value[0]!.toUpperCase() + value.slice(1) : ''),
      },
      { field: 'language', headerName: 'Language', width: 120, filterable: false, sortable: false },
      { field: 'name', headerName: 'Device', minWidth: 130, flex: 0.8, filterable: false, sortable: false },
      {
        field: 'unique_device_id',
        headerName: 'Device UUID',
        minWidth: 170,
        filterable: false,
        sortable: false,
        valueFormatter: (value: string) => (value === NO_DEVICE ? '' : value),
      },
      {
        field: 'actions',
        type: 'actions',
        headerName: 'Actions',
        width: seesIdentifiable ? 250 : 140,
        getActions: ({ row }: GridRowParams<GridRow>) => {
          const open = (kind: NonNullable<OpenDialog>['kind']) => () => {
            const participant = shown.current.get(row.participant_id);
            if (participant) setDialog({ kind, participant });
          };
          const who = `participant ${row.participant_id}`;
          const hasDevice = row.unique_device_id !== NO_DEVICE;
          return [
            <GridActionsCellItem
              key="details"
              icon={<VisibilityOutlinedIcon />}
              label={`View details of ${who}`}
              onClick={open('details')}
            />,
            ...(seesIdentifiable
              ? [
                  <GridActionsCellItem
                    key="edit"
                    icon={<EditOutlinedIcon />}
                    label={`Edit ${who}`}
                    onClick={open('edit')}
                  />,
                  <GridActionsCellItem
                    key="referral"
                    icon={<AssignmentOutlinedIcon />}
                    label={`Edit referral of ${who}`}
                    onClick={open('referral')}
                  />,
                ]
              : []),
            ...(hasDevice
              ? [
                  <GridActionsCellItem
                    key="progress"
                    icon={<FastForwardOutlinedIcon />}
                    label={`Progress ${who} one day forward`}
                    onClick={open('progress')}
                  />,
                  <GridActionsCellItem
                    key="message"
                    icon={<SmsOutlinedIcon />}
                    label={`Message ${who}`}
                    onClick={open('message')}
                  />,
                ]
              : []),
            ...(seesIdentifiable
              ? [
                  <GridActionsCellItem
                    key="delete"
                    icon={<DeleteOutlineIcon color="error" />}
                    label={`Delete ${who}`}
                    onClick={open('delete')}
                  />,
                ]
              : []),
          ];
        },
      },
    ];
  }, [seesIdentifiable]);

  const exporter = useParticipantExport({ state, sort, order, q: search || undefined });
  // Phones and tablets have no double-click: the hint would describe something they cannot do.
  const canDoubleClick = useMediaQuery('(hover: hover) and (pointer: fine) and (min-width: 600px)');

  function clearState() {
    const params = new URLSearchParams(searchParams);
    params.delete('state');
    void navigate(
      { pathname: location.pathname, search: params.toString() ? `?${params}` : '', hash: '' },
      { replace: true },
    );
  }

  return (
    <>
      <PageHeader
        title="Participants"
        actions={
          <>
            {exporter.button}
            {can('participants.manage') && (
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
      {state && (
        <Alert
          severity="info"
          icon={false}
          sx={{ mb: 2 }}
          action={
            <Button color="inherit" size="small" onClick={clearState}>
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
          rows={rows}
          columns={columns}
          getRowId={(row) => row.participant_id}
          loading={list.isFetching}
          paginationMode="server"
          sortingMode="server"
          filterMode="server"
          rowCount={rowCount.current}
          pageSizeOptions={PAGE_SIZES}
          paginationModel={pagination}
          onPaginationModelChange={setPagination}
          sortModel={sortModel}
          onSortModelChange={(model) => {
            setSortModel(model);
            setPagination((p) => ({ ...p, page: 0 }));
          }}
          sortingOrder={['asc', 'desc']}
          filterModel={filterModel}
          onFilterModelChange={onFilterModelChange}
          processRowUpdate={processRowUpdate}
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

      {/* A snackbar, so a confirmation does not push the grid down. */}
      <Snackbar
        open={notice !== null}
        autoHideDuration={6000}
        onClose={(_event, reason) => reason !== 'clickaway' && setNotice(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      >
        <Alert severity="success" variant="filled" role="status" onClose={() => setNotice(null)}>
          {notice}
        </Alert>
      </Snackbar>

      <Suspense fallback={null}>
        {dialog?.kind === 'details' && (
          <ParticipantDetailsDialog participant={dialog.participant} onClose={() => closeDialog()} />
        )}
        {dialog?.kind === 'edit' && hasContactData(dialog.participant) && (
          <EditParticipantDialog participant={dialog.participant} onClose={() => closeDialog()} />
        )}
        {dialog?.kind === 'referral' && (
          <EditReferralDialog
            participantId={dialog.participant.participant_id}
            name={
              hasContactData(dialog.participant)
                ? `${dialog.participant.first_name} ${dialog.participant.last_name}`
                : undefined
            }
            onClose={() => closeDialog()}
          />
        )}
        {dialog?.kind === 'progress' && (
          <ProgressForwardDialog
            participantId={dialog.participant.participant_id}
            onClose={() => closeDialog()}
            onProgressed={(message) => {
              closeDialog();
              setNotice(message);
              void list.refetch();
            }}
          />
        )}
        {dialog?.kind === 'message' && (
          <MessageUserDialog
            participant={dialog.participant}
            onClose={() => closeDialog()}
            onSent={(message) => {
              closeDialog();
              setNotice(message);
              void list.refetch();
            }}
          />
        )}
        {dialog?.kind === 'delete' && (
          <DeleteParticipantDialog
            participant={dialog.participant}
            onClose={() => closeDialog()}
            onDeleted={() => closeDialog({ rowRemoved: true })}
          />
        )}
      </Suspense>
    </>
  );
}
