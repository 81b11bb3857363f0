import DownloadIcon from '@mui/icons-material/Download';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { AuditEvent } from '@pathway/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { format } from 'date-fns';
import { useState } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { PageLoading } from '../../components/PageLoading';
import { describeRetention } from '@pathway/contract';
import { saveBlob } from '../../lib/download';
import { retentionQuery } from '../../lib/retention';
import { auditQuery, fetchAuditExport } from './api';

const columns = ['Time', 'Admin', 'Action', 'Participant', 'Detail', 'IP address'];
const SHOWN_IDS = 6;

/** One participant, or the ids a list read returned (the export holds them all). */
function participants(event: AuditEvent): string {
  if (event.participant_id !== null) return String(event.participant_id);
  const ids = event.participant_ids;
  if (ids.length === 0) return '—';
  const shown = ids.slice(0, SHOWN_IDS).join(', ');
  return ids.length > SHOWN_IDS ? `${shown} and ${ids.length - SHOWN_IDS} more (${ids.length})` : shown;
}

/**
 * The audit trail (full access): who read or changed identifiable participant data, when and from
 * where, newest first. It names fields and participants, never their values.
 */
export function AuditPage() {
  const [page, setPage] = useState(0);
  const [perPage, setPerPage] = useState(50);
  const audit = useQuery(auditQuery(page + 1, perPage));
  const retention = useQuery(retentionQuery);
  const download = useMutation({
    mutationFn: fetchAuditExport,
    onSuccess: (blob) => saveBlob(blob, `audit-${format(new Date(), 'yyyy-MM-dd')}.csv`),
  });

  return (
    <>
      <PageHeader
        title="Audit trail"
        actions={
          <Button
            variant="contained"
            startIcon={<DownloadIcon />}
            loading={download.isPending}
            onClick={() => download.mutate()}
          >
            Export CSV
          </Button>
        }
      >
        Every view and change of identifiable participant data: who, what, which participant, when and from
        where.
        {retention.data &&
          ` Records are kept for ${describeRetention(retention.data.audit_retention_days)}, then removed.`}
      </PageHeader>
      {download.error && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {download.error.message}
        </Alert>
      )}

      {audit.isPending ? (
        <PageLoading label="Loading the audit trail" />
      ) : audit.isError ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" onClick={() => void audit.refetch()}>
              Try again
            </Button>
          }
        >
          {audit.error.message}
        </Alert>
      ) : (
        <Paper variant="outlined">
          <TableContainer>
            <Table aria-label="Audit trail" size="small">
              <TableHead>
                <TableRow>
                  {columns.map((column) => (
                    <TableCell key={column} sx={{ whiteSpace: 'nowrap' }}>
                      {column}
                    </TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                {audit.data.data.map((event) => (
                  <TableRow key={event.audit_event_id} hover>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>
                      {format(new Date(event.created_at), 'dd/MM/yyyy HH:mm:ss')}
                    </TableCell>
                    <TableCell sx={{ wordBreak: 'break-word' }}>{event.admin_user_name}</TableCell>
                    <TableCell>{event.action_label}</TableCell>
                    <TableCell
                      sx={{ maxWidth: 260 }}
                      title={
                        event.participant_ids.length > SHOWN_IDS
                          ? event.participant_ids.join(', ')
                          : undefined
                      }
                    >
                      {participants(event)}
                    </TableCell>
                    <TableCell sx={{ maxWidth: 320, wordBreak: 'break-word' }}>
                      {event.detail ?? '—'}
                    </TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{event.ip ?? '—'}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          {audit.data.data.length === 0 && (
            <Box sx={{ p: 3 }}>
              <Typography>Nothing recorded yet.</Typography>
            </Box>
          )}
          <TablePagination
            component="div"
            count={audit.data.pagination.total}
            page={page}
            rowsPerPage={perPage}
            rowsPerPageOptions={[25, 50, 100, 250]}
            onPageChange={(_event, next) => setPage(next)}
            onRowsPerPageChange={(event) => {
              setPerPage(Number(event.target.value));
              setPage(0);
            }}
            showFirstButton
            showLastButton
          />
        </Paper>
      )}
    </>
  );
}
