import AssignmentOutlinedIcon from '@mui/icons-material/AssignmentOutlined';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import FastForwardOutlinedIcon from '@mui/icons-material/FastForwardOutlined';
import SmsOutlinedIcon from '@mui/icons-material/SmsOutlined';
import VisibilityOutlinedIcon from '@mui/icons-material/VisibilityOutlined';
import {
  GridActionsCellItem,
  getGridSingleSelectOperators,
  type GridColDef,
  type GridRowParams,
} from '@mui/x-data-grid';
import {
  NO_DEVICE,
  PARTICIPANT_STATUS_LABELS,
  apiRoutes,
  fieldLabel,
  formatNhsNumber,
  participantField,
  type AdherenceState,
  type FieldPermission,
  type ParticipantStatus,
  type RouteRef,
} from '@pathway/contract';
import { Suspense, lazy, type ReactElement } from 'react';
import { contactAgo, contactExact } from '../../../lib/contactTime';
import { STATE_LABELS, TrackingChip, trackingText } from '../tracking';
import type { ParticipantDialogKind } from './ParticipantDialogs';
import { gridFields } from '../participantFields';
import { formatDay, type GridRow } from './gridRow';

// The date-of-birth editor brings the date pickers; it is fetched once the page shows a full-access
// admin's grid, so it is there by the time they double-click a date.
export const loadDateOfBirthEditCell = () => import('../DateOfBirthEditCell');
const DateOfBirthEditCell = lazy(async () => ({
  default: (await loadDateOfBirthEditCell()).DateOfBirthEditCell,
}));

const trackingOperators = getGridSingleSelectOperators().filter((op) => op.value === 'is');

/**
 * Columns of the participant's own fields, from the contract's field table; a field whose access
 * the role does not open (the contact fields, for basic access) has none.
 */
function ownFieldColumns(opens: (permission: FieldPermission) => boolean): GridColDef<GridRow>[] {
  return gridFields(opens).map((name): GridColDef<GridRow> => {
    const spec = participantField(name);
    const grid = spec.grid!;
    const column: GridColDef<GridRow> = {
      field: name,
      headerName: fieldLabel(name, 'grid'),
      ...(grid.width !== undefined && { width: grid.width }),
      ...(grid.minWidth !== undefined && { minWidth: grid.minWidth }),
      ...(grid.flex !== undefined && { flex: grid.flex }),
      ...(spec.editable?.inline && { editable: true }),
      filterable: false,
      ...(!grid.sortable && { sortable: false }),
    };
    const input = spec.form?.input;
    if (input === 'date') {
      return {
        ...column,
        type: 'date',
        valueFormatter: (value: Date | null) => formatDay(value),
        renderEditCell: (params) => (
          <Suspense fallback={null}>
            <DateOfBirthEditCell {...params} />
          </Suspense>
        ),
      };
    }
    if (input === 'nhs') {
      return {
        ...column,
        valueFormatter: (value: string | null | undefined) => formatNhsNumber(value ?? null),
      };
    }
    if (input === 'gender') {
      return {
        ...column,
        valueFormatter: (value: string | null) => (value ? value[0]!.toUpperCase() + value.slice(1) : ''),
      };
    }
    return column;
  });
}

/**
 * The row's actions, in order: each opens one of the page's modals, and is offered to whoever may
 * call the route that modal sends to or loads (`route`), as the server decides it.
 */
const ACTIONS: Array<{
  kind: ParticipantDialogKind;
  icon: ReactElement;
  label: (who: string) => string;
  /** The route the action's modal calls: the action is shown when the role may call it. */
  route: RouteRef;
  /** It changes identifiable fields: also needs the role to open them (the update's per-field rule). */
  identifiable?: boolean;
  /** Only for a participant with a device. */
  needsDevice?: boolean;
}> = [
  {
    kind: 'details',
    icon: <VisibilityOutlinedIcon />,
    label: (who) => `View details of ${who}`,
    route: apiRoutes.participants.get,
  },
  {
    kind: 'edit',
    icon: <EditOutlinedIcon />,
    label: (who) => `Edit ${who}`,
    route: apiRoutes.participants.update,
    identifiable: true,
  },
  {
    kind: 'referral',
    icon: <AssignmentOutlinedIcon />,
    label: (who) => `Edit referral of ${who}`,
    route: apiRoutes.participants.referral,
  },
  {
    kind: 'progress',
    icon: <FastForwardOutlinedIcon />,
    label: (who) => `Progress ${who} one day forward`,
    route: apiRoutes.progress.forwardOneDay,
    needsDevice: true,
  },
  {
    kind: 'message',
    icon: <SmsOutlinedIcon />,
    label: (who) => `Message ${who}`,
    route: apiRoutes.participants.message,
    needsDevice: true,
  },
  {
    kind: 'delete',
    icon: <DeleteOutlineIcon color="error" />,
    label: (who) => `Delete ${who}`,
    route: apiRoutes.participants.remove,
  },
];

function actionsColumn(
  seesIdentifiable: boolean,
  canCall: (route: RouteRef) => boolean,
  openDialog: (kind: ParticipantDialogKind, participantId: number) => void,
): GridColDef<GridRow> {
  const offered = ACTIONS.filter(
    (action) => canCall(action.route) && (seesIdentifiable || !action.identifiable),
  );
  return {
    field: 'actions',
    type: 'actions',
    headerName: 'Actions',
    width: seesIdentifiable ? 250 : 140,
    getActions: ({ row }: GridRowParams<GridRow>) => {
      const who = `participant ${row.participant_id}`;
      const hasDevice = row.unique_device_id !== NO_DEVICE;
      // Discharged: read-only until re-referral (from the details); they may still be deleted.
      const active = row.status === 'active';
      return offered
        .filter(
          (action) =>
            (hasDevice || !action.needsDevice) &&
            (active || action.kind === 'details' || action.kind === 'delete'),
        )
        .map((action) => (
          <GridActionsCellItem
            key={action.kind}
            icon={action.icon}
            label={action.label(who)}
            onClick={() => openDialog(action.kind, row.participant_id)}
          />
        ));
    },
  };
}

/** The grid's columns (spec §2): contact columns and their inline editing for full access only. */
export function participantColumns({
  opens,
  canCall,
  openDialog,
}: {
  /** Whether the signed-in role opens a field permission (`useFieldAccess()`). */
  opens: (permission: FieldPermission) => boolean;
  /** Whether the signed-in role may call a route (`useCanCall()`): each action asks for its own. */
  canCall: (route: RouteRef) => boolean;
  openDialog: (kind: ParticipantDialogKind, participantId: number) => void;
}): GridColDef<GridRow>[] {
  const seesIdentifiable = opens('identifiable');
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
        <span title={contactExact(row.tablet_last_contact_at)}>{contactAgo(row.tablet_last_contact_at)}</span>
      ),
    },
    ...ownFieldColumns(opens),
    {
      field: 'status',
      headerName: 'Status',
      width: 120,
      filterable: false,
      sortable: false,
      valueFormatter: (value: ParticipantStatus) => PARTICIPANT_STATUS_LABELS[value] ?? value,
    },
    { field: 'name', headerName: 'Device', minWidth: 130, flex: 0.8, filterable: false, sortable: false },
    {
      field: 'unique_device_id',
      headerName: 'Device UUID',
      minWidth: 170,
      filterable: false,
      sortable: false,
      valueFormatter: (value: string) => (value === NO_DEVICE ? '' : value),
    },
    actionsColumn(seesIdentifiable, canCall, openDialog),
  ];
}
