import { hasContactData, type ParticipantView } from '@pathway/contract';
import { Suspense, lazy } from 'react';
import { useParticipantRecord } from '../../../lib/participantRecord';

// The dialogs load when one is opened: with their forms, date picker and validation they would
// otherwise double what the list itself downloads.
const ParticipantDetailsDialog = lazy(async () => ({
  default: (await import('../ParticipantDetailsDialog')).ParticipantDetailsDialog,
}));
const EditParticipantDialog = lazy(async () => ({
  default: (await import('../EditParticipantDialog')).EditParticipantDialog,
}));
const EditReferralDialog = lazy(async () => ({
  default: (await import('../EditReferralDialog')).EditReferralDialog,
}));
const MessageUserDialog = lazy(async () => ({
  default: (await import('../MessageUserDialog')).MessageUserDialog,
}));
const DeleteParticipantDialog = lazy(async () => ({
  default: (await import('../DeleteParticipantDialog')).DeleteParticipantDialog,
}));

export type ParticipantDialogKind = 'details' | 'edit' | 'referral' | 'progress' | 'message' | 'delete';
export type OpenParticipantDialog = { kind: ParticipantDialogKind; participant: ParticipantView } | null;

/** The modal a row's action opened, if any. */
export function ParticipantDialogs({
  dialog,
  onClose,
  onDone,
}: {
  dialog: OpenParticipantDialog;
  /** Closed; `rowRemoved` when the participant is gone (deleted). */
  onClose: (options?: { rowRemoved?: boolean }) => void;
  /** A change the list shows (progress, a message sent): its confirmation is shown and the page read again. */
  onDone: (message: string) => void;
}) {
  const { ProgressForwardDialog } = useParticipantRecord();
  if (!dialog) return null;
  const { kind, participant } = dialog;
  const close = () => onClose();
  return (
    <Suspense fallback={null}>
      {kind === 'details' && <ParticipantDetailsDialog participant={participant} onClose={close} />}
      {kind === 'edit' && hasContactData(participant) && (
        <EditParticipantDialog participant={participant} onClose={close} />
      )}
      {kind === 'referral' && (
        <EditReferralDialog
          participantId={participant.participant_id}
          name={
            hasContactData(participant) ? `${participant.first_name} ${participant.last_name}` : undefined
          }
          onClose={close}
        />
      )}
      {kind === 'progress' && (
        <ProgressForwardDialog
          participantId={participant.participant_id}
          onClose={close}
          onProgressed={onDone}
        />
      )}
      {kind === 'message' && <MessageUserDialog participant={participant} onClose={close} onSent={onDone} />}
      {kind === 'delete' && (
        <DeleteParticipantDialog
          participant={participant}
          onClose={close}
          onDeleted={() => onClose({ rowRemoved: true })}
        />
      )}
    </Suspense>
  );
}
