import type { ParticipantRecordParts } from '../lib/participantRecord';
import { lazyNamed } from './lazyNamed';

/**
 * A participant's record, put together from the features that own its parts: a feature adds its
 * tab here (shown after Details, in this order). Each part loads when it is first shown.
 */
export const participantRecordParts: ParticipantRecordParts = {
  tabs: [
    {
      value: 'videoset',
      label: 'Video Set',
      Panel: lazyNamed(() => import('../features/progress/VideoSetTab'), 'VideoSetTab'),
    },
    {
      value: 'progress',
      label: 'Progress',
      withProgrammeOnly: true,
      Panel: lazyNamed(() => import('../features/progress/ProgressTab'), 'ProgressTab'),
    },
    {
      value: 'advanced',
      label: 'Advanced settings',
      withProgrammeOnly: true,
      Panel: lazyNamed(() => import('../features/progress/AdvancedSettingsTab'), 'AdvancedSettingsTab'),
    },
    {
      value: 'outcomes',
      label: 'Outcomes',
      Panel: lazyNamed(() => import('../features/outcomes/OutcomesTab'), 'OutcomesTab'),
    },
    {
      value: 'contacts',
      label: 'Contacts',
      Panel: lazyNamed(() => import('../features/followup/ContactsTab'), 'ContactsTab'),
    },
    {
      value: 'messages',
      label: 'Messages',
      Panel: lazyNamed(() => import('../features/followup/MessagesTab'), 'MessagesTab'),
    },
  ],
  RecordDialog: lazyNamed(
    () => import('../features/participants/ParticipantDetailsDialog'),
    'ParticipantRecordDialog',
  ),
  RecordResultDialog: lazyNamed(
    () => import('../features/outcomes/RecordResultDialog'),
    'RecordResultDialog',
  ),
  ProgressForwardDialog: lazyNamed(
    () => import('../features/progress/ProgressForwardDialog'),
    'ProgressForwardDialog',
  ),
};
