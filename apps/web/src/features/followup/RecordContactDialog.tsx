import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import {
  CONTACT_METHOD_LABELS,
  CONTACT_METHODS,
  CONTACT_NOTE_MAX,
  CONTACT_OUTCOME_LABELS,
  CONTACT_OUTCOMES,
  type ContactMethod,
  type ContactOutcome,
} from '@pathway/contract';
import { useState, type FormEvent } from 'react';
import { FormDialog } from '../../components/form/FormDialog';
import { useFieldAccess } from '../../lib/session';
import { useRecordContact } from './api';

/**
 * Record a contact attempt: how, what came of it, a note (identifiable: full access
 * reads it back), and when to follow up next. The server checks every field and answers with the
 * contract's message, shown in the dialog's Warning box.
 */
export function RecordContactDialog({
  participantId,
  who,
  onClose,
  onRecorded,
}: {
  participantId: number;
  /** Whom the dialog is about, as the admin may see it (a name for full access, else the id). */
  who: string;
  onClose: () => void;
  onRecorded: () => void;
}) {
  const can = useFieldAccess();
  const record = useRecordContact(participantId);
  const [method, setMethod] = useState<ContactMethod>('phone');
  const [outcome, setOutcome] = useState<ContactOutcome>('reached');
  const [note, setNote] = useState('');
  const [next, setNext] = useState('');

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    record.mutate(
      { method, outcome, note: note.trim() || undefined, next_followup_on: next || undefined },
      { onSuccess: onRecorded },
    );
  };

  return (
    <FormDialog
      id="record-contact"
      title={`Record contact: ${who}`}
      onClose={onClose}
      onSubmit={submit}
      pending={record.isPending}
      error={record.error}
      submitLabel="Record contact"
    >
      <Stack spacing={2.5} sx={{ pt: 1 }}>
        <TextField
          select
          id="record-contact-method"
          label="Method"
          value={method}
          onChange={(e) => setMethod(e.target.value as ContactMethod)}
          autoFocus
        >
          {CONTACT_METHODS.map((m) => (
            <MenuItem key={m} value={m}>
              {CONTACT_METHOD_LABELS[m]}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          id="record-contact-outcome"
          label="Outcome"
          value={outcome}
          onChange={(e) => setOutcome(e.target.value as ContactOutcome)}
        >
          {CONTACT_OUTCOMES.map((o) => (
            <MenuItem key={o} value={o}>
              {CONTACT_OUTCOME_LABELS[o]}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          id="record-contact-note"
          label="Note (optional)"
          value={note}
          onChange={(e) => setNote(e.target.value)}
          multiline
          minRows={3}
          slotProps={{ htmlInput: { maxLength: CONTACT_NOTE_MAX } }}
          helperText={
            can('identifiable')
              ? `At most ${CONTACT_NOTE_MAX.toLocaleString('en-GB')} characters.`
              : 'Notes are read by full-access admins only.'
          }
        />
        <TextField
          id="record-contact-next"
          label="Next follow-up date (optional)"
          type="date"
          value={next}
          onChange={(e) => setNext(e.target.value)}
          slotProps={{ inputLabel: { shrink: true } }}
          helperText="Today or later. Until then the participant leaves the worklist, unless a new reason appears."
        />
      </Stack>
    </FormDialog>
  );
}
