import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import { FOLLOWUP_REASON_LABELS, type FollowupReason } from '@pathway/contract';

/**
 * The grid's tracking colours for the adherence reasons (red behind, yellow slightly behind); the
 * others outlined in colours of the same contrast. Always with words, never colour alone.
 */
const REASON_COLOURS: Record<FollowupReason, { bg: string; fg: string; outlined?: boolean }> = {
  behind: { bg: '#D5281B', fg: '#FFFFFF' },
  tablet_silent: { bg: '#330072', fg: '#FFFFFF' },
  reminders_failing: { bg: '#7C2855', fg: '#FFFFFF' },
  slightly_behind: { bg: '#FFEB3B', fg: '#212B32' },
  programme_finished: { bg: '#005EB8', fg: '#FFFFFF' },
  not_started: { bg: '#FFFFFF', fg: '#212B32', outlined: true },
  assessment_due: { bg: '#007F3B', fg: '#FFFFFF' },
};

export function ReasonChip({ reason }: { reason: FollowupReason }) {
  const c = REASON_COLOURS[reason];
  return (
    <Chip
      size="small"
      variant={c.outlined ? 'outlined' : 'filled'}
      label={FOLLOWUP_REASON_LABELS[reason]}
      data-reason={reason}
      sx={{ fontWeight: 600, bgcolor: c.bg, color: c.fg, ...(c.outlined && { borderColor: '#425563' }) }}
    />
  );
}

export function ReasonChips({ reasons }: { reasons: readonly FollowupReason[] }) {
  return (
    <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
      {reasons.map((r) => (
        <ReasonChip key={r} reason={r} />
      ))}
    </Stack>
  );
}
