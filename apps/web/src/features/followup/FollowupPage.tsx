import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { alpha, type SxProps, type Theme } from '@mui/material/styles';
import {
  CONTACT_METHOD_LABELS,
  CONTACT_OUTCOME_LABELS,
  FOLLOWUP_REASON_LABELS,
  FOLLOWUP_REASONS,
  messages,
  type FollowupEntry,
  type FollowupReason,
} from '@pathway/contract';
import { useQuery } from '@tanstack/react-query';
import { Suspense, useState } from 'react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { PagedTable, usePaging, type TableColumn } from '../../components/PagedTable';
import { SiteFilterNotice, SiteSelect } from '../../components/SiteSelect';
import { contactAgo, contactExact, contactShort } from '../../lib/contactTime';
import { formatLongDate, formatShortDate } from '../../lib/dates';
import { useParticipantRecord } from '../../lib/participantRecord';
import { useFieldAccess } from '../../lib/session';
import { useSiteFilter } from '../../lib/siteFilter';
import { FIRST_WORKLIST_PAGE, followupCountsQuery, followupListQuery } from './api';
import { ReasonChips } from './ReasonChips';
import { RecordContactDialog } from './RecordContactDialog';

const isReason = (value: string | null): value is FollowupReason =>
  value !== null && (FOLLOWUP_REASONS as readonly string[]).includes(value);

function whoOf(row: FollowupEntry): string {
  return 'first_name' in row ? `${row.first_name} ${row.last_name}` : `participant ${row.participant_id}`;
}

/**
 * The day the oldest current reason began; "at least since" when no fact of its start was kept (a
 * reason first seen by an upgrade), so nobody reads a long-standing problem as a new one.
 */
function since(row: FollowupEntry): string {
  const day = formatShortDate(row.since);
  return row.since_exact ? day : messages.followup.sinceAtLeast(day);
}

/**
 * The row's action stays in sight: at the table's right edge, over the columns that scroll
 * sideways beneath it when the screen is too narrow for all of them (a phone).
 */
const actionCell: SxProps<Theme> = {
  position: 'sticky',
  right: 0,
  bgcolor: 'background.paper',
  boxShadow: (theme) => `inset 1px 0 0 ${theme.palette.divider}`,
};
const actionHead: SxProps<Theme> = {
  ...actionCell,
  // The header's tint (theme.ts) over an opaque cell, as the other header cells show it.
  backgroundImage: (theme) =>
    `linear-gradient(${alpha(theme.palette.primary.main, 0.06)}, ${alpha(theme.palette.primary.main, 0.06)})`,
};

/**
 * A coordinator's main screen fits a laptop (1366 px, sidebar open) without sideways scrolling:
 * narrow cell padding, headers on two lines, short dates, a name on two lines at most.
 */
const worklistSx: SxProps<Theme> = {
  '& .MuiTableCell-root': { px: 0.75 },
  '& .MuiTableCell-root:first-of-type': { pl: 2 },
  '& .MuiTableCell-root:last-of-type': { pr: 2 },
};

const nameLines: SxProps<Theme> = {
  display: '-webkit-box',
  WebkitLineClamp: 2,
  WebkitBoxOrient: 'vertical',
  overflow: 'hidden',
  overflowWrap: 'anywhere',
};

function columnsFor(full: boolean): (string | TableColumn)[] {
  return [
    { label: 'Participant', sx: { minWidth: 140 } },
    ...(full ? ['Phone'] : []),
    'Device',
    'Reasons',
    'Since',
    'Days behind',
    'Tablet last in contact',
    'Last contact',
    'Next follow-up',
    { label: 'Actions', labelHidden: true, sx: actionHead },
  ];
}

/**
 * Follow-up: everyone who needs attention today, most urgent first, with every reason that
 * applies, the last contact attempt and the next follow-up date. Basic access sees the id, the
 * device name and the reasons (the server sends no name or phone number).
 */
export function FollowupPage() {
  const can = useFieldAccess();
  const full = can('identifiable');
  const { RecordDialog, RecordResultDialog } = useParticipantRecord();
  const [searchParams, setSearchParams] = useSearchParams();
  const reasonParam = searchParams.get('reason');
  const reason = isReason(reasonParam) ? reasonParam : undefined;
  const paging = usePaging(FIRST_WORKLIST_PAGE.perPage);
  const site = useSiteFilter();
  const list = useQuery(
    followupListQuery({ page: paging.page + 1, perPage: paging.perPage, reason, site_id: site.siteId }),
  );
  const counts = useQuery(followupCountsQuery(site.siteId));
  const [opened, setOpened] = useState<number | null>(null);
  const [recording, setRecording] = useState<FollowupEntry | null>(null);
  const [assessing, setAssessing] = useState<FollowupEntry | null>(null);

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
      <Stack direction="row" sx={{ mb: 2, gap: 2, flexWrap: 'wrap', alignItems: 'flex-start' }}>
        <TextField
          select
          size="small"
          sx={{ minWidth: 220, maxWidth: 320, flex: '1 1 220px' }}
          id="followup-reason-filter"
          label="Reason"
          value={reason ?? ''}
          onChange={(e) => {
            paging.setPage(0);
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
        <SiteSelect filter={site} onChange={() => paging.setPage(0)} />
      </Stack>
      <SiteFilterNotice
        filter={site}
        unseen="participants of your other sites who need follow-up are not listed"
      />
      <PagedTable
        query={list}
        loadingLabel="Loading the follow-up worklist"
        label="Follow-up worklist"
        size="small"
        wrapHeaders
        tableSx={worklistSx}
        columns={columnsFor(full)}
        rowKey={(row) => row.participant_id}
        rowProps={(row) => ({ 'data-participant': row.participant_id })}
        empty={`Nobody${site.siteLabel ? ` at ${site.siteLabel}` : ''} needs follow-up${reason ? ' for this reason' : ''} today.`}
        paging={{ state: paging, perPageOptions: [10, 25, 50, 100] }}
        renderRow={(row) => {
          const name =
            'first_name' in row
              ? `${row.first_name} ${row.last_name} (${row.participant_id})`
              : `Participant ${row.participant_id}`;
          return (
            <>
              <TableCell>
                <Button
                  variant="text"
                  onClick={() => setOpened(row.participant_id)}
                  title={name}
                  sx={{ textAlign: 'left', textTransform: 'none', p: 0.5, minWidth: 0 }}
                >
                  <Box component="span" sx={nameLines}>
                    {name}
                  </Box>
                </Button>
              </TableCell>
              {full && (
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {'phone_number' in row && (
                    <>
                      {row.phone_number}
                      {row.phone_number_secondary && (
                        <>
                          <br />
                          {row.phone_number_secondary}
                        </>
                      )}
                    </>
                  )}
                </TableCell>
              )}
              <TableCell sx={{ overflowWrap: 'break-word' }}>{row.device_name ?? 'No device'}</TableCell>
              <TableCell>
                <ReasonChips reasons={row.reasons} />
              </TableCell>
              <TableCell title={formatLongDate(row.since)}>{since(row)}</TableCell>
              <TableCell>{row.days_behind}</TableCell>
              <TableCell title={contactExact(row.tablet_last_contact_at)}>
                {contactAgo(row.tablet_last_contact_at)}
              </TableCell>
              <TableCell title={row.last_contact_at ? contactExact(row.last_contact_at) : undefined}>
                {row.last_contact_at && row.last_contact_method && row.last_contact_outcome ? (
                  <>
                    {contactShort(row.last_contact_at)}
                    <Typography variant="body2" color="text.secondary">
                      {CONTACT_METHOD_LABELS[row.last_contact_method]} ·{' '}
                      {CONTACT_OUTCOME_LABELS[row.last_contact_outcome]}
                    </Typography>
                  </>
                ) : (
                  'None'
                )}
              </TableCell>
              <TableCell title={row.next_followup_on ? formatLongDate(row.next_followup_on) : undefined}>
                {row.next_followup_on ? formatShortDate(row.next_followup_on) : '—'}
              </TableCell>
              <TableCell sx={actionCell}>
                <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'stretch', gap: 0.5 }}>
                  <Button
                    variant="outlined"
                    size="small"
                    onClick={() => setRecording(row)}
                    aria-label={`Record contact with ${whoOf(row)}`}
                    sx={{ whiteSpace: 'nowrap' }}
                  >
                    Record contact
                  </Button>
                  {row.reasons.includes('assessment_due') && (
                    <Button
                      variant="outlined"
                      size="small"
                      onClick={() => setAssessing(row)}
                      aria-label={`Record a result for ${whoOf(row)}`}
                      sx={{ whiteSpace: 'nowrap' }}
                    >
                      Record result
                    </Button>
                  )}
                </Box>
              </TableCell>
            </>
          );
        }}
      />
      {opened !== null && (
        <Suspense fallback={null}>
          <RecordDialog participantId={opened} onClose={() => setOpened(null)} />
        </Suspense>
      )}
      {assessing && (
        <Suspense fallback={null}>
          <RecordResultDialog
            participantId={assessing.participant_id}
            who={whoOf(assessing)}
            onClose={() => setAssessing(null)}
            onRecorded={() => setAssessing(null)}
          />
        </Suspense>
      )}
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
