import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  CONTACT_METHOD_LABELS,
  CONTACT_OUTCOME_LABELS,
  FOLLOWUP_REASON_LABELS,
  FOLLOWUP_REASONS,
  type FollowupEntry,
  type FollowupReason,
} from '@pathway/contract';
import { useQuery } from '@tanstack/react-query';
import { Suspense, lazy, useState } from 'react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/PageHeader';
import { QueryState } from '../../../components/QueryState';
import { contactAgo, contactExact } from '../../../lib/contactTime';
import { formatLongDate } from '../../../lib/dates';
import { visuallyHidden } from '../../../lib/a11y';
import { useFieldAccess } from '../../../lib/session';
import { participantQuery } from '../api';
import { followupCountsQuery, followupListQuery } from './api';
import { ReasonChips } from './ReasonChips';
import { RecordContactDialog } from './RecordContactDialog';

const ParticipantDetailsDialog = lazy(async () => ({
  default: (await import('../ParticipantDetailsDialog')).ParticipantDetailsDialog,
}));

const isReason = (value: string | null): value is FollowupReason =>
  value !== null && (FOLLOWUP_REASONS as readonly string[]).includes(value);

function whoOf(row: FollowupEntry): string {
  return 'first_name' in row ? `${row.first_name} ${row.last_name}` : `participant ${row.participant_id}`;
}

/** The participant's details, once read from the server (the worklist row is not a participant). */
function DetailsFor({ participantId, onClose }: { participantId: number; onClose: () => void }) {
  const participant = useQuery(participantQuery(participantId));
  if (!participant.data) return null;
  return (
    <Suspense fallback={null}>
      <ParticipantDetailsDialog participant={participant.data} onClose={onClose} />
    </Suspense>
  );
}

/**
 * Follow-up (issue 31): everyone who needs attention today, most urgent first, with every reason
 * that applies, the last contact attempt and the next follow-up date. Basic access sees the id,
 * the device name and the reasons (the server sends no name or phone number).
 */
export function FollowupPage() {
  const can = useFieldAccess();
  const full = can('identifiable');
  const [searchParams, setSearchParams] = useSearchParams();
  const reasonParam = searchParams.get('reason');
  const reason = isReason(reasonParam) ? reasonParam : undefined;
  const [page, setPage] = useState(0);
  const [perPage, setPerPage] = useState(25);
  const list = useQuery(followupListQuery({ page: page + 1, perPage, reason }));
  const counts = useQuery(followupCountsQuery);
  const [opened, setOpened] = useState<number | null>(null);
  const [recording, setRecording] = useState<FollowupEntry | null>(null);

  return (
    <>
      <PageHeader title="Follow-up">
        Participants who need a call today, most urgent first. Recording a contact with a next follow-up date
        takes someone off the list until that day, unless a new reason appears.
      </PageHeader>
      {counts.data?.daily_check_overdue && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {counts.data.daily_check_last_run_on
            ? `The daily adherence check last ran on ${formatLongDate(counts.data.daily_check_last_run_on)}: days behind and the reasons that come from them may be out of date. Tell the operator.`
            : 'The daily adherence check has not run yet: days behind and the reasons that come from them may be out of date. Tell the operator.'}
        </Alert>
      )}
      <Box sx={{ mb: 2, maxWidth: 320 }}>
        <TextField
          select
          fullWidth
          id="followup-reason-filter"
          label="Reason"
          value={reason ?? ''}
          onChange={(e) => {
            setPage(0);
            const next = new URLSearchParams(searchParams);
            if (e.target.value) next.set('reason', e.target.value);
            else next.delete('reason');
            setSearchParams(next);
          }}
        >
          <MenuItem value="">Every reason</MenuItem>
          {FOLLOWUP_REASONS.map((r) => (
            <MenuItem key={r} value={r}>
              {FOLLOWUP_REASON_LABELS[r]}
            </MenuItem>
          ))}
        </TextField>
      </Box>
      <QueryState query={list} loadingLabel="Loading the follow-up worklist">
        {(data) => (
          <Paper variant="outlined">
            <TableContainer>
              <Table size="small" aria-label="Follow-up worklist">
                <TableHead>
                  <TableRow>
                    <TableCell>Participant</TableCell>
                    {full && <TableCell>Phone</TableCell>}
                    <TableCell>Device</TableCell>
                    <TableCell>Reasons</TableCell>
                    <TableCell>Since</TableCell>
                    <TableCell>Days behind</TableCell>
                    <TableCell>Tablet last in contact</TableCell>
                    <TableCell>Last contact</TableCell>
                    <TableCell>Next follow-up</TableCell>
                    <TableCell>
                      <Box component="span" sx={visuallyHidden}>
                        Actions
                      </Box>
                    </TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {data.data.map((row) => (
                    <TableRow key={row.participant_id} hover data-participant={row.participant_id}>
                      <TableCell>
                        <Button
                          variant="text"
                          onClick={() => setOpened(row.participant_id)}
                          sx={{ textAlign: 'left', textTransform: 'none', p: 0.5, minWidth: 0 }}
                        >
                          {'first_name' in row
                            ? `${row.first_name} ${row.last_name} (${row.participant_id})`
                            : `Participant ${row.participant_id}`}
                        </Button>
                      </TableCell>
                      {full && (
                        <TableCell sx={{ whiteSpace: 'nowrap' }}>
                          {'phone_number' in row ? (
                            <>
                              {row.phone_number}
                              {row.phone_number_secondary && (
                                <>
                                  <br />
                                  {row.phone_number_secondary}
                                </>
                              )}
                            </>
                          ) : null}
                        </TableCell>
                      )}
                      <TableCell>{row.device_name ?? 'No device'}</TableCell>
                      <TableCell>
                        <ReasonChips reasons={row.reasons} />
                      </TableCell>
                      <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatLongDate(row.since)}</TableCell>
                      <TableCell>{row.days_behind}</TableCell>
                      <TableCell
                        sx={{ whiteSpace: 'nowrap' }}
                        title={contactExact(row.tablet_last_contact_at)}
                      >
                        {row.tablet_last_contact_at ? contactAgo(row.tablet_last_contact_at) : 'Never'}
                      </TableCell>
                      <TableCell>
                        {row.last_contact_at && row.last_contact_method && row.last_contact_outcome
                          ? `${contactExact(row.last_contact_at)} · ${CONTACT_METHOD_LABELS[row.last_contact_method]} · ${CONTACT_OUTCOME_LABELS[row.last_contact_outcome]}`
                          : 'None'}
                      </TableCell>
                      <TableCell sx={{ whiteSpace: 'nowrap' }}>
                        {row.next_followup_on ? formatLongDate(row.next_followup_on) : '—'}
                      </TableCell>
                      <TableCell>
                        <Button
                          variant="outlined"
                          size="small"
                          onClick={() => setRecording(row)}
                          aria-label={`Record contact with ${whoOf(row)}`}
                          sx={{ whiteSpace: 'nowrap' }}
                        >
                          Record contact
                        </Button>
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
            {data.data.length === 0 && (
              <Box sx={{ p: 3 }}>
                <Typography>Nobody needs follow-up{reason ? ' for this reason' : ''} today.</Typography>
              </Box>
            )}
            <TablePagination
              component="div"
              count={data.pagination.total}
              page={page}
              rowsPerPage={perPage}
              rowsPerPageOptions={[10, 25, 50, 100]}
              onPageChange={(_event, next) => setPage(next)}
              onRowsPerPageChange={(event) => {
                setPerPage(Number(event.target.value));
                setPage(0);
              }}
            />
          </Paper>
        )}
      </QueryState>
      {opened !== null && <DetailsFor participantId={opened} onClose={() => setOpened(null)} />}
      {recording && (
        <RecordContactDialog
          participantId={recording.participant_id}
          who={whoOf(recording)}
          onClose={() => setRecording(null)}
          onRecorded={() => setRecording(null)}
        />
      )}
    </>
  );
}
