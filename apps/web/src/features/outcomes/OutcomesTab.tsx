import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import {
  MCID_CLASS_LABELS,
  TIMEPOINT_LABELS,
  type AssessmentEntry,
  type DueState,
  type Measure,
  type ParticipantOutcomes,
} from '@pathway/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { QueryState } from '../../components/QueryState';
import { visuallyHidden } from '../../lib/a11y';
import { contactExact } from '../../lib/contactTime';
import { formatLongDate, formatShortDate } from '../../lib/dates';
import type { ParticipantTabProps } from '../../lib/participantRecord';
import { useFieldAccess } from '../../lib/session';
import { measuresQuery, participantOutcomesQuery, resultsQuery } from './api';
import { AmendResultDialog } from './AmendResultDialog';
import { valueText } from './measureText';
import { RecordResultDialog, type RecordResultDefaults } from './RecordResultDialog';

const STATE_LABELS: Record<DueState, string> = {
  upcoming: 'Upcoming',
  due: 'Due',
  recorded: 'Recorded',
  missed: 'Missed',
};
const STATE_COLOURS: Record<DueState, 'default' | 'primary' | 'success' | 'error'> = {
  upcoming: 'default',
  due: 'primary',
  recorded: 'success',
  missed: 'error',
};
const CLASS_COLOURS = { improved: 'success', unchanged: 'default', worse: 'error' } as const;

const timepointText = (t: { timepoint: keyof typeof TIMEPOINT_LABELS; week: number | null }) =>
  t.week !== null ? `${TIMEPOINT_LABELS[t.timepoint]}, week ${t.week}` : TIMEPOINT_LABELS[t.timepoint];

const signed = (n: number) => `${n > 0 ? '+' : n < 0 ? '−' : ''}${Math.abs(n).toLocaleString('en-GB')}`;

function DueTable({
  outcomes,
  measures,
  onRecord,
}: {
  outcomes: ParticipantOutcomes;
  measures: Map<string, Measure>;
  onRecord: (defaults: RecordResultDefaults) => void;
}) {
  if (!outcomes.programme)
    return (
      <Typography>No programme yet: what to assess comes with the video set&apos;s schedule.</Typography>
    );
  if (outcomes.due.length === 0)
    return (
      <Typography>
        The video set {outcomes.programme.set_name} has no assessment schedule: results can still be recorded.
      </Typography>
    );
  return (
    <TableContainer tabIndex={0} role="region" aria-label="Assessments of the schedule (scrolls sideways)">
      <Table size="small" aria-label="Assessments of the schedule">
        <TableHead>
          <TableRow>
            <TableCell>Timepoint</TableCell>
            <TableCell>Measure</TableCell>
            <TableCell>Due</TableCell>
            <TableCell>State</TableCell>
            <TableCell align="right">
              <Box component="span" sx={visuallyHidden}>
                Actions
              </Box>
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {outcomes.due.map((d) => {
            const name = measures.get(d.measure)?.name ?? d.measure;
            return (
              <TableRow
                key={`${d.timepoint}-${d.week ?? ''}-${d.measure}`}
                data-due={`${d.timepoint}:${d.measure}`}
              >
                <TableCell>{timepointText(d)}</TableCell>
                <TableCell>{name}</TableCell>
                <TableCell
                  title={`${formatLongDate(d.due_from)} to ${d.due_until ? formatLongDate(d.due_until) : ''}`}
                >
                  {formatShortDate(d.due_from)} to {d.due_until ? formatShortDate(d.due_until) : '—'}
                </TableCell>
                <TableCell>
                  <Chip size="small" label={STATE_LABELS[d.state]} color={STATE_COLOURS[d.state]} />
                </TableCell>
                <TableCell align="right">
                  {(d.state === 'due' || d.state === 'missed' || d.state === 'upcoming') && (
                    <Button
                      size="small"
                      variant="outlined"
                      aria-label={`Record ${name}, ${timepointText(d)}`}
                      onClick={() => onRecord({ timepoint: d.timepoint, week: d.week, measure: d.measure })}
                    >
                      Record
                    </Button>
                  )}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function ResultsTable({
  outcomes,
  measures,
  onAmend,
}: {
  outcomes: ParticipantOutcomes;
  measures: Map<string, Measure>;
  onAmend: (assessmentId: number) => void;
}) {
  if (outcomes.results.length === 0) return <Typography>No result recorded yet.</Typography>;
  return (
    <TableContainer tabIndex={0} role="region" aria-label="Results against the baseline (scrolls sideways)">
      <Table size="small" aria-label="Results against the baseline, newest first">
        <TableHead>
          <TableRow>
            <TableCell>Taken</TableCell>
            <TableCell>Measure</TableCell>
            <TableCell>Timepoint</TableCell>
            <TableCell align="right">Result</TableCell>
            <TableCell align="right">Baseline</TableCell>
            <TableCell align="right">Change</TableCell>
            <TableCell>Against the MCID</TableCell>
            <TableCell align="right">
              <Box component="span" sx={visuallyHidden}>
                Actions
              </Box>
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {outcomes.results.map((r) => {
            const measure = measures.get(r.measure);
            const unit = measure?.unit ?? '';
            return (
              <TableRow key={r.assessment_id} data-result={`${r.timepoint}:${r.measure}`}>
                <TableCell sx={{ whiteSpace: 'nowrap' }} title={formatLongDate(r.taken_on)}>
                  {formatShortDate(r.taken_on)}
                </TableCell>
                <TableCell>{measure?.name ?? r.measure}</TableCell>
                <TableCell>{timepointText(r)}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {valueText(r.score, unit)}
                  {r.amended && (
                    <Typography component="span" variant="body2" sx={{ display: 'block' }}>
                      amended
                    </Typography>
                  )}
                </TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {r.baseline === null ? '—' : valueText(r.baseline, unit)}
                </TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {r.change === null ? '—' : signed(r.change)}
                </TableCell>
                <TableCell>
                  {r.late_baseline ? (
                    <Chip
                      size="small"
                      color="warning"
                      label="Late baseline: taken after week 1, not used"
                      sx={{ height: 'auto', '& .MuiChip-label': { whiteSpace: 'normal' } }}
                    />
                  ) : r.mcid_class ? (
                    <Chip
                      size="small"
                      color={CLASS_COLOURS[r.mcid_class]}
                      label={MCID_CLASS_LABELS[r.mcid_class]}
                    />
                  ) : r.timepoint !== 'baseline' && r.baseline === null ? (
                    'No baseline'
                  ) : (
                    '—'
                  )}
                </TableCell>
                <TableCell align="right">
                  <Button
                    size="small"
                    aria-label={`Amend ${measure?.name ?? r.measure} of ${formatLongDate(r.taken_on)}`}
                    onClick={() => onAmend(r.assessment_id)}
                  >
                    Amend
                  </Button>
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function History({ entries, measures }: { entries: AssessmentEntry[]; measures: Map<string, Measure> }) {
  const can = useFieldAccess();
  if (entries.length === 0) return null;
  return (
    <List aria-label="Every result and amendment, newest first" dense>
      {entries.map((e) => (
        <ListItem key={e.assessment_id} divider sx={{ display: 'block', px: 0 }} data-entry={e.assessment_id}>
          <Typography sx={{ fontWeight: 600 }}>
            {contactExact(e.created_at)} · {measures.get(e.measure)?.name ?? e.measure} · {timepointText(e)} ·{' '}
            {e.entered_in_error ? 'entered in error' : e.score === null ? '—' : valueText(e.score, e.unit)}
            {e.superseded ? ' (replaced by a later amendment)' : ''}
          </Typography>
          <Typography variant="body2">
            {e.amends !== null ? `Amends result ${e.amends}` : `Result ${e.assessment_id}`}, taken{' '}
            {formatLongDate(e.taken_on)}, by {e.admin_user_name}
          </Typography>
          {e.amends !== null &&
            (can('identifiable') && e.reason ? (
              <Typography variant="body2" sx={{ whiteSpace: 'pre-line', wordBreak: 'break-word' }}>
                Reason: {e.reason}
              </Typography>
            ) : (
              <Typography variant="body2" sx={{ fontStyle: 'italic' }}>
                A reason was given (full access reads it).
              </Typography>
            ))}
          {e.has_note &&
            (can('identifiable') && e.note ? (
              <Typography variant="body2" sx={{ whiteSpace: 'pre-line', wordBreak: 'break-word' }}>
                Note: {e.note}
              </Typography>
            ) : (
              <Typography variant="body2" sx={{ fontStyle: 'italic' }}>
                A note was recorded (full access reads it).
              </Typography>
            ))}
        </ListItem>
      ))}
    </List>
  );
}

/**
 * A participant's outcomes: what their video set's schedule asks for and when, each current result
 * against their baseline (the change, and whether it passes the MCID), and every entry with its
 * amendments. Results are recorded and amended here.
 */
export function OutcomesTab({ participantId, who }: ParticipantTabProps) {
  const outcomes = useQuery(participantOutcomesQuery(participantId));
  const results = useQuery(resultsQuery(participantId));
  const measures = useQuery(measuresQuery);
  const [recording, setRecording] = useState<RecordResultDefaults | null>(null);
  const [amending, setAmending] = useState<number | null>(null);
  const byCode = new Map((measures.data ?? []).map((m) => [m.code, m]));
  const amendEntry = amending === null ? undefined : results.data?.find((e) => e.assessment_id === amending);
  const amendMeasure = amendEntry && byCode.get(amendEntry.measure);

  return (
    <section aria-labelledby="participant-outcomes-heading">
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', mb: 1.5, gap: 2 }}>
        <Typography id="participant-outcomes-heading" variant="h3">
          Outcomes
        </Typography>
        <Button variant="contained" onClick={() => setRecording({})}>
          Record a result
        </Button>
      </Box>
      <QueryState query={outcomes} loadingLabel="Loading the outcomes">
        {(data) => (
          <>
            <Typography component="h4" variant="h4" sx={{ fontSize: '1rem', fontWeight: 600, mt: 1, mb: 1 }}>
              What is due
            </Typography>
            <DueTable outcomes={data} measures={byCode} onRecord={setRecording} />
            <Typography component="h4" variant="h4" sx={{ fontSize: '1rem', fontWeight: 600, mt: 3, mb: 1 }}>
              Results against the baseline
            </Typography>
            <ResultsTable outcomes={data} measures={byCode} onAmend={setAmending} />
          </>
        )}
      </QueryState>
      {results.data && results.data.length > 0 && (
        <>
          <Typography component="h4" variant="h4" sx={{ fontSize: '1rem', fontWeight: 600, mt: 3, mb: 1 }}>
            Every entry, amendments included
          </Typography>
          <History entries={results.data} measures={byCode} />
        </>
      )}
      {recording && (
        <RecordResultDialog
          participantId={participantId}
          who={who}
          defaults={recording}
          onClose={() => setRecording(null)}
          onRecorded={() => setRecording(null)}
        />
      )}
      {amendEntry && amendMeasure && (
        <AmendResultDialog
          participantId={participantId}
          who={who}
          entry={amendEntry}
          measure={amendMeasure}
          onClose={() => setAmending(null)}
          onAmended={() => setAmending(null)}
        />
      )}
    </section>
  );
}
