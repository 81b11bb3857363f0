import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { NO_DEVICE, messages, type AuthorisedDevice, type ParticipantView } from '@pathway/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { QueryState } from '../../components/QueryState';
import { WarningAlert } from '../../components/WarningAlert';
import { availableDevicesQuery, useUpdateParticipant } from './api';
import { deviceLabel } from './deviceLabel';

/**
 * Changing a participant's device (spec §2, §4): first the current one is detached, after
 * confirmation (its tablet stops working for them at once); then one is chosen from the available
 * devices, or the spec's message says there are none.
 */
export function ChangeDeviceDialog({
  participant,
  onClose,
}: {
  participant: ParticipantView;
  onClose: () => void;
}) {
  const hasDevice = participant.unique_device_id !== NO_DEVICE;
  const [step, setStep] = useState<'detach' | 'choose'>(hasDevice ? 'detach' : 'choose');
  const [chosen, setChosen] = useState<AuthorisedDevice | null>(null);
  const [missingChoice, setMissingChoice] = useState(false);
  const update = useUpdateParticipant();
  const devices = useQuery({ ...availableDevicesQuery, enabled: step === 'choose' });
  const current = hasDevice
    ? deviceLabel({ name: participant.name ?? '', uuid: participant.unique_device_id })
    : '';

  function detach() {
    update.mutate(
      { id: participant.participant_id, changes: { unique_device_id: NO_DEVICE } },
      {
        onSuccess: () => {
          update.reset();
          setStep('choose');
        },
      },
    );
  }

  function assign() {
    if (!chosen) {
      setMissingChoice(true);
      return;
    }
    update.mutate(
      { id: participant.participant_id, changes: { unique_device_id: chosen.uuid } },
      { onSuccess: onClose },
    );
  }

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="change-device-title">
      <DialogTitle id="change-device-title">
        {step === 'detach' ? 'Detach device' : 'Choose a device'}
      </DialogTitle>
      <DialogContent dividers>
        {update.error && <WarningAlert message={update.error.message} />}
        {step === 'detach' ? (
          <DialogContentText sx={{ color: 'text.primary' }}>
            Detach <strong>{current}</strong> from participant {participant.participant_id}? The tablet stops
            working for them at once. You can then choose another device.
          </DialogContentText>
        ) : (
          <QueryState query={devices} loadingLabel="Loading available devices">
            {(available) =>
              available.length === 0 ? (
                <Alert severity="warning">{messages.device.noneAvailable}</Alert>
              ) : (
                <Autocomplete
                  id="change-device-choice"
                  options={available}
                  value={chosen}
                  onChange={(_event, device) => {
                    setChosen(device);
                    setMissingChoice(false);
                  }}
                  getOptionLabel={deviceLabel}
                  isOptionEqualToValue={(option, value) => option.uuid === value.uuid}
                  renderInput={(params) => (
                    <TextField
                      {...params}
                      label="Device"
                      required
                      autoFocus
                      error={missingChoice}
                      helperText={
                        missingChoice ? messages.participant.deviceEmpty : 'Type to search by name or UUID'
                      }
                    />
                  )}
                />
              )
            }
          </QueryState>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 2 }}>
        <Button onClick={onClose}>{step === 'choose' && hasDevice ? 'Close' : 'Cancel'}</Button>
        {step === 'detach' ? (
          <Button color="error" variant="contained" loading={update.isPending} onClick={detach}>
            Detach
          </Button>
        ) : (
          devices.data &&
          devices.data.length > 0 && (
            <Button variant="contained" loading={update.isPending} onClick={assign}>
              Assign device
            </Button>
          )
        )}
      </DialogActions>
    </Dialog>
  );
}
