import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { referralBody, type Referral } from '@pathway/contract';
import { useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { PageLoading } from '../../components/PageLoading';
import { QueryError } from '../../components/QueryState';
import { WarningAlert } from '../../components/WarningAlert';
import { referralQuery, useUpdateParticipant } from './api';
import { ReferralFields, referralFormValues } from './ReferralFields';

function ReferralForm({ referral, onClose }: { referral: Referral; onClose: () => void }) {
  const update = useUpdateParticipant();
  const {
    control,
    handleSubmit,
    formState: { errors },
  } = useForm({ resolver: zodResolver(referralBody), defaultValues: referralFormValues(referral) });

  const save = handleSubmit((changes) =>
    update.mutate({ id: referral.participant_id, changes }, { onSuccess: onClose }),
  );

  return (
    <Box component="form" noValidate onSubmit={save}>
      <DialogContent dividers>
        {update.error && <WarningAlert message={update.error.message} />}
        <ReferralFields control={control} errors={errors} idPrefix="edit-referral" />
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 2 }}>
        <Button onClick={onClose}>Cancel</Button>
        <Button type="submit" variant="contained" loading={update.isPending}>
          Save
        </Button>
      </DialogActions>
    </Box>
  );
}

/** Edit participant referral (spec §2, §5): full access; every referral field is required. */
export function EditReferralDialog({
  participantId,
  name,
  onClose,
}: {
  participantId: number;
  /** First and last name, when known: the title names whom the referral is about. */
  name?: string;
  onClose: () => void;
}) {
  const referral = useQuery(referralQuery(participantId));
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby="edit-referral-title">
      <DialogTitle id="edit-referral-title">
        {name ? `Edit referral — ${name}` : `Edit referral of participant ${participantId}`}
      </DialogTitle>
      {referral.isPending ? (
        <DialogContent dividers>
          <PageLoading label="Loading the referral" />
        </DialogContent>
      ) : referral.isError ? (
        <>
          <DialogContent dividers>
            <QueryError query={referral} sx={{}} />
          </DialogContent>
          <DialogActions sx={{ px: 3, py: 2 }}>
            <Button onClick={onClose}>Close</Button>
          </DialogActions>
        </>
      ) : (
        <ReferralForm referral={referral.data} onClose={onClose} />
      )}
    </Dialog>
  );
}
