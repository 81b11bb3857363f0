import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import TableCell from '@mui/material/TableCell';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { apiRoutes, type AuthorisedDeviceView } from '@pathway/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { ACTIONS_COLUMN, PagedTable } from '../../components/PagedTable';
import { contactExact } from '../../lib/contactTime';
import { useCanCall } from '../../lib/session';
import { devicesQuery } from './api';
import { DeviceSignInsSection } from './DeviceSignInsSection';
import { DeleteDeviceDialog } from './DeleteDeviceDialog';
import { DeviceFormDialog } from './DeviceFormDialog';

type OpenDialog = { kind: 'add' } | { kind: 'edit' | 'delete'; device: AuthorisedDeviceView } | null;

const columns = ['Database ID / Assigned to', 'Identifiable Name', 'Device Unique ID', ACTIONS_COLUMN];

/** Who holds the device: by name for full access, by participant id otherwise (spec §3, §6). */
function holder(device: AuthorisedDeviceView): string {
  if (device.participant_id === null) return 'Unassigned';
  if ('first_name' in device && device.first_name !== null)
    return `Assigned to ${device.first_name} ${device.last_name ?? ''}`.trim();
  return `Assigned to participant ${device.participant_id}`;
}

export function AuthorisedDevicesPage() {
  const devices = useQuery(devicesQuery);
  const canCall = useCanCall();
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const close = () => setDialog(null);

  return (
    <>
      <PageHeader
        title="Authorised mobile devices"
        actions={
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setDialog({ kind: 'add' })}>
            Add Mobile Device
          </Button>
        }
      >
        Tablets allowed to run the programme app. A device is given to one participant at a time.
      </PageHeader>

      <PagedTable
        query={devices}
        loadingLabel="Loading devices"
        label="Authorised mobile devices"
        columns={columns}
        rowKey={(device) => device.authorized_device_id}
        empty="No devices yet. Add the tablets the programme hands out."
        renderRow={(device) => {
          const assigned = device.participant_id !== null;
          return (
            <>
              <TableCell>
                <Typography component="span" sx={{ fontWeight: 600 }}>
                  {device.authorized_device_id}
                </Typography>
                <Typography variant="body2" color={assigned ? 'text.primary' : 'text.secondary'}>
                  {holder(device)}
                </Typography>
                {device.flagged_sign_in_at && (
                  <Chip
                    size="small"
                    color="warning"
                    sx={{ mt: 0.5 }}
                    label={`Signed in from a new address while in use, ${contactExact(device.flagged_sign_in_at)}`}
                  />
                )}
              </TableCell>
              <TableCell sx={{ wordBreak: 'break-word' }}>{device.name}</TableCell>
              <TableCell sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>{device.uuid}</TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                <Tooltip title="Edit" describeChild>
                  <IconButton
                    aria-label={`Edit ${device.name}`}
                    onClick={() => setDialog({ kind: 'edit', device })}
                  >
                    <EditOutlinedIcon />
                  </IconButton>
                </Tooltip>
                <Tooltip
                  title={assigned ? 'Only an unassigned device can be deleted' : 'Delete'}
                  describeChild
                >
                  {/* A disabled button takes no pointer events; the span keeps its tooltip. */}
                  <span>
                    <IconButton
                      aria-label={`Delete ${device.name}`}
                      color="error"
                      disabled={assigned}
                      onClick={() => setDialog({ kind: 'delete', device })}
                    >
                      <DeleteOutlineIcon />
                    </IconButton>
                  </span>
                </Tooltip>
              </TableCell>
            </>
          );
        }}
      />

      {canCall(apiRoutes.devices.signIns) && <DeviceSignInsSection />}

      {dialog?.kind === 'add' && <DeviceFormDialog onClose={close} />}
      {dialog?.kind === 'edit' && <DeviceFormDialog device={dialog.device} onClose={close} />}
      {dialog?.kind === 'delete' && <DeleteDeviceDialog device={dialog.device} onClose={close} />}
    </>
  );
}
