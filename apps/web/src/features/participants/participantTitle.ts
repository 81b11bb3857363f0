import { hasContactData, type ParticipantView } from '@pathway/contract';

/**
 * A modal's title names whom it acts on: the participant's name for full access ("Edit
 * participant — Mary Seacole"), the id for basic access, who may not see names.
 */
export function participantTitle(
  action: string,
  participant: ParticipantView,
  options: { keepId?: boolean } = {},
): string {
  if (hasContactData(participant)) return `${action} — ${participant.first_name} ${participant.last_name}`;
  return options.keepId ? action : `${action} — participant ${participant.participant_id}`;
}
