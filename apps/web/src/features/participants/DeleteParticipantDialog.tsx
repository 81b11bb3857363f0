import { hasContactData, type ParticipantView } from '@pathway/contract';
import { ConfirmDeleteDialog } from '../../components/ConfirmDeleteDialog';
import { useDeleteParticipant } from './api';
import { participantTitle } from './participantTitle';

/** Delete participant (spec §2, §8): on success the list reloads; a refusal shows the server's message. */
export function DeleteParticipantDialog({
  participant,
  onClose,
  onDeleted,
}: {
  participant: ParticipantView;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const remove = useDeleteParticipant();
  const name = hasContactData(participant) ? `${participant.first_name} ${participant.last_name}` : null;
  return (
    <ConfirmDeleteDialog
      id="delete-participant"
      title={participantTitle('Delete participant', participant)}
      text={
        <>
          <strong>
            Participant {participant.participant_id}
            {name && ` (${name})`}
          </strong>{' '}
          will be deleted immediately, with their referral and progress. Their device becomes available for
          someone else. This cannot be undone.
        </>
      }
      error={remove.error}
      pending={remove.isPending}
      onConfirm={() => remove.mutate(participant.participant_id, { onSuccess: onDeleted })}
      onClose={onClose}
    />
  );
}
