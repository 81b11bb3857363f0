import Chip from '@mui/material/Chip';
import {
  ADHERENCE_LABELS,
  NO_DEVICE,
  NO_PROGRAMME_LABEL,
  NO_TABLET_LABEL,
  adherenceOf,
  type AdherenceState,
  type ParticipantBasic,
} from '@pathway/contract';

export const STATE_LABELS: Record<AdherenceState, string> = ADHERENCE_LABELS;

/** Spec §2: green at 0 days behind, yellow at 1 to 2, red from 3; colours chosen for AA contrast. */
const STATE_COLOURS: Record<AdherenceState, { bg: string; fg: string }> = {
  onTrack: { bg: '#007F3B', fg: '#FFFFFF' },
  slightlybehind: { bg: '#FFEB3B', fg: '#212B32' },
  behind: { bg: '#D5281B', fg: '#FFFFFF' },
};

export function trackingColour(daysBehind: number) {
  return STATE_COLOURS[adherenceOf(daysBehind)];
}

export function daysBehindText(daysBehind: number): string {
  return daysBehind === 1 ? '1 day behind' : `${daysBehind} days behind`;
}

type Tracked = Pick<ParticipantBasic, 'days_behind' | 'adherence_state' | 'unique_device_id'>;

/**
 * The grid's tracking text: the state with its days behind, or, for someone who has no programme
 * (so no adherence state), what they are waiting for.
 */
export function trackingText(p: Tracked): string {
  if (!p.adherence_state) return p.unique_device_id === NO_DEVICE ? NO_TABLET_LABEL : NO_PROGRAMME_LABEL;
  if (p.adherence_state === 'onTrack') return STATE_LABELS.onTrack;
  return `${STATE_LABELS[p.adherence_state]} · ${p.days_behind === 1 ? '1 day' : `${p.days_behind} days`}`;
}

/** The tracking colour with words, so the state never depends on colour alone; never cut short. */
export function TrackingChip({ participant }: { participant: Tracked }) {
  const state = participant.adherence_state;
  const colours = state ? STATE_COLOURS[state] : null;
  return (
    <Chip
      size="small"
      variant={colours ? 'filled' : 'outlined'}
      label={trackingText(participant)}
      title={state ? daysBehindText(participant.days_behind) : undefined}
      data-tracking={state ?? 'none'}
      sx={{
        fontWeight: 600,
        maxWidth: 'none',
        ...(colours && { bgcolor: colours.bg, color: colours.fg }),
        '& .MuiChip-label': { overflow: 'visible', textOverflow: 'clip' },
      }}
    />
  );
}
