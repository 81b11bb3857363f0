import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  WITHDRAWAL_REASONS,
  WITHDRAWAL_REASON_LABELS,
  messages,
  todayIsoDate,
  type DischargeOutcome,
  type ParticipantView,
  type WithdrawalReason,
} from '@pathway/contract';
import { useState, type FormEvent } from 'react';
import { FormDialog } from '../../components/form/FormDialog';
import { useDischargeParticipant } from './api';
import { participantTitle } from './participantTitle';

/**
 * Discharge: completed, or withdrawn with a reason and an optional note; the date is
 * today unless changed. What follows is said before it is done: the tablet is detached and signed
 * out, reminders stop, the programme position is frozen, the record becomes read-only.
 */
export function DischargeDialog({
  participant,
  initialOutcome = 'completed',
  onClose,
  onDischarged,
}: {
  participant: ParticipantView;
  initialOutcome?: DischargeOutcome;
  onClose: () => void;
  onDischarged: () => void;
}) {
  const discharge = useDischargeParticipant();
  const [outcome, setOutcome] = useState<DischargeOutcome>(initialOutcome);
  const [reason, setReason] = useState<WithdrawalReason | ''>('');
  const [note, setNote] = useState('');
  const [day, setDay] = useState(todayIsoDate());
  const [reasonError, setReasonError] = useState<string | null>(null);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (outcome === 'withdrawn' && !reason) {
      setReasonError('Please choose why the participant withdrew');
      return;
    }
    setReasonError(null);
    discharge.mutate(
      {
        id: participant.participant_id,
        body: {
          outcome,
          ...(outcome === 'withdrawn' && { reason: reason as WithdrawalReason }),
          note: note.trim() || null,
          discharged_on: day,
        },
      },
      { onSuccess: onDischarged },
    );
  }

  return (
    <FormDialog
      id="discharge"
      title={participantTitle('Discharge participant', participant)}
      onClose={onClose}
      onSubmit={submit}
      pending={discharge.isPending}
      error={discharge.error}
      submitLabel="Discharge"
      describedBy="discharge-description"
    >
      <Typography id="discharge-description" sx={{ mb: 2 }}>
        {messages.lifeCycle.dischargeConfirm}
      </Typography>
      <FormLabel id="discharge-outcome-label">Outcome</FormLabel>
      <RadioGroup
        aria-labelledby="discharge-outcome-label"
        value={outcome}
        onChange={(event) => setOutcome(event.target.value as DischargeOutcome)}
        sx={{ mb: 1 }}
      >
        <FormControlLabel value="completed" control={<Radio />} label="Completed the programme" />
        <FormControlLabel value="withdrawn" control={<Radio />} label="Withdrawn" />
      </RadioGroup>
      {outcome === 'withdrawn' && (
        <TextField
          select
          label="Reason"
          value={reason}
          onChange={(event) => setReason(event.target.value as WithdrawalReason)}
          error={Boolean(reasonError)}
          helperText={reasonError ?? ' '}
          required
          fullWidth
          margin="normal"
        >
          {WITHDRAWAL_REASONS.map((value) => (
            <MenuItem key={value} value={value}>
              {WITHDRAWAL_REASON_LABELS[value]}
            </MenuItem>
          ))}
        </TextField>
      )}
      <TextField
        label="Discharge date"
        type="date"
        value={day}
        onChange={(event) => setDay(event.target.value)}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: todayIsoDate() } }}
        fullWidth
        margin="normal"
      />
      <TextField
        label="Note (optional)"
        value={note}
        onChange={(event) => setNote(event.target.value)}
        multiline
        minRows={2}
        fullWidth
        margin="normal"
      />
    </FormDialog>
  );
}
