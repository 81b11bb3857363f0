import Chip from '@mui/material/Chip';
import { adherenceOf, type AdherenceState } from '@pathway/contract';

export const STATE_LABELS: Record<AdherenceState, string> = {
  onTrack: 'On track',
  slightlybehind: 'Slightly behind',
  behind: 'Behind',
};

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

/** The tracking colour with words, so the state never depends on colour alone. */
export function TrackingChip({ daysBehind }: { daysBehind: number }) {
  const state = adherenceOf(daysBehind);
  const { bg, fg } = STATE_COLOURS[state];
  return (
    <Chip
      size="small"
      label={state === 'onTrack' ? STATE_LABELS.onTrack : `${STATE_LABELS[state]} (${daysBehind})`}
      title={daysBehindText(daysBehind)}
      data-tracking={state}
      sx={{ bgcolor: bg, color: fg, fontWeight: 600 }}
    />
  );
}
