import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { messages, type ParticipantView } from '@pathway/contract';
import { useState, type FormEvent } from 'react';
import { FormDialog } from '../../components/form/FormDialog';
import { siteName, useSessionSites } from '../../lib/organisations';
import { useTransferParticipant } from './api';
import { participantTitle } from './participantTitle';

/**
 * Moves a participant to another site of their organisation, after saying what follows: their
 * tablet, programme and history go with them, and staff limited to the old site no longer see them.
 */
export function TransferDialog({
  participant,
  onClose,
  onTransferred,
}: {
  participant: ParticipantView;
  onClose: () => void;
  onTransferred: (message: string) => void;
}) {
  const seen = useSessionSites();
  const sites = seen.filter((site) => site.site_id !== participant.site_id);
  const transfer = useTransferParticipant();
  const [siteId, setSiteId] = useState<number | ''>('');
  const [missing, setMissing] = useState(false);
  const from = siteName(seen, participant.site_id);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (siteId === '') {
      setMissing(true);
      return;
    }
    transfer.mutate(
      { id: participant.participant_id, site_id: siteId },
      { onSuccess: () => onTransferred(messages.organisation.transferred(siteName(sites, siteId))) },
    );
  };

  return (
    <FormDialog
      id="transfer-participant"
      title={participantTitle('Transfer participant', participant)}
      onClose={onClose}
      onSubmit={submit}
      pending={transfer.isPending}
      error={transfer.error}
      submitLabel="Transfer"
      describedBy="transfer-participant-description"
    >
      <Typography id="transfer-participant-description" sx={{ mb: 2.5 }}>
        Participant {participant.participant_id} is at <strong>{from}</strong>. Their tablet, programme and
        history move with them; staff limited to {from} will no longer see them.
      </Typography>
      <TextField
        id="transfer-participant-site"
        select
        required
        label="New site"
        value={siteId}
        onChange={(event) => {
          setSiteId(Number(event.target.value));
          setMissing(false);
        }}
        error={missing}
        helperText={missing ? messages.organisation.siteRequired : undefined}
      >
        {sites.map((site) => (
          <MenuItem key={site.site_id} value={site.site_id}>
            {site.name}
          </MenuItem>
        ))}
      </TextField>
    </FormDialog>
  );
}
