import type { Timepoint } from '@pathway/contract';
import { createContext, useContext, type ComponentType } from 'react';

/**
 * A participant's record is shown by one feature (participants) and filled by others (a programme's
 * tabs come from progress, the contact log from followup), and features do not import each other.
 * So the parts meet here: the app puts them together (app/participantRecord.tsx) and provides them
 * to every page; the participants feature shows the tabs, and any feature opens the record.
 */

/** What a tab of the record is given. */
export interface ParticipantTabProps {
  participantId: number;
  /** Whom the record is about, as its title says it ("Participant 12", with the name for full access). */
  who: string;
}

export interface ParticipantTab {
  /** The tab's id in the dialog: unique, and part of the tab's and its panel's element ids. */
  value: string;
  label: string;
  /** Offered only once the participant has a programme (spec §2: Progress and Advanced settings). */
  withProgrammeOnly?: boolean;
  Panel: ComponentType<ParticipantTabProps>;
}

export interface ParticipantRecordParts {
  /** The record dialog's tabs after Details, in their order. */
  tabs: readonly ParticipantTab[];
  /** The record dialog for a participant known by id (a worklist row is not a participant's answer). */
  RecordDialog: ComponentType<{ participantId: number; onClose: () => void }>;
  /** A worklist row's action: record an outcome result (the assessment the row is due). */
  RecordResultDialog: ComponentType<{
    participantId: number;
    who: string;
    defaults?: { timepoint?: Timepoint; week?: number | null; measure?: string };
    onClose: () => void;
    onRecorded: () => void;
  }>;
  /** A participant list row's action: progress one day forward (spec §2). */
  ProgressForwardDialog: ComponentType<{
    participantId: number;
    onClose: () => void;
    onProgressed: (message: string) => void;
  }>;
}

const ParticipantRecordContext = createContext<ParticipantRecordParts | null>(null);

export const ParticipantRecordProvider = ParticipantRecordContext.Provider;

export function useParticipantRecord(): ParticipantRecordParts {
  const parts = useContext(ParticipantRecordContext);
  if (!parts)
    throw new Error('useParticipantRecord needs a ParticipantRecordProvider (the console layout has one)');
  return parts;
}
