import DownloadIcon from '@mui/icons-material/Download';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TableCell from '@mui/material/TableCell';
import TextField from '@mui/material/TextField';
import { AUDIT_ACTIONS, type AuditAction, type AuditEvent } from '@pathway/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { format } from 'date-fns';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { PagedTable, usePaging } from '../../components/PagedTable';
import { saveBlob } from '../../lib/download';
import { auditRecordsKept, retentionQuery } from '../../lib/retention';
import { auditQuery, fetchAuditExport } from './api';

const columns = ['Time', 'Admin', 'Action', 'Participant', 'Detail', 'IP address'];
const SHOWN_IDS = 6;
/** Every kind the server records, in the contract's order (data access first, then security events). */
const KINDS = Object.entries(AUDIT_ACTIONS) as [AuditAction, string][];
const ALL_KINDS = 'all';

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
  const paging = usePaging(50);
  // A link may open the trail at one kind (the dashboard's break-glass card: ?action=signin.break_glass).
  const [searchParams] = useSearchParams();
  const [kind, setKind] = useState<AuditAction | null>(() => {
    const asked = searchParams.get('action');
    return asked !== null && Object.hasOwn(AUDIT_ACTIONS, asked) ? (asked as AuditAction) : null;
  });
  const audit = useQuery(auditQuery(paging.page + 1, paging.perPage, kind));
  const retention = useQuery(retentionQuery);
  const download = useMutation({
    mutationFn: () => fetchAuditExport(kind),
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
        Every view and change of identifiable participant data, and every security event (sign-ins, lock-outs,
        changes to admin users, exports, server log access): who, what, when and from where.
        {retention.data && auditRecordsKept(retention.data.audit_retention_days)}
      </PageHeader>
      <TextField
        select
        id="audit-kind"
        label="Kind"
        size="small"
        value={kind ?? ALL_KINDS}
        onChange={(event) => {
          setKind(event.target.value === ALL_KINDS ? null : (event.target.value as AuditAction));
          paging.setPage(0);
        }}
        helperText="The list and the CSV export hold this kind only"
        sx={{ mb: 2, minWidth: 280, maxWidth: '100%' }}
      >
        <MenuItem value={ALL_KINDS}>All kinds</MenuItem>
        {KINDS.map(([action, label]) => (
          <MenuItem key={action} value={action}>
            {label}
          </MenuItem>
        ))}
      </TextField>
      {download.error && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {download.error.message}
        </Alert>
      )}

      <PagedTable
        query={audit}
        loadingLabel="Loading the audit trail"
        label="Audit trail"
        size="small"
        columns={columns}
        rowKey={(event) => event.audit_event_id}
        empty={kind ? 'Nothing of this kind recorded.' : 'Nothing recorded yet.'}
        paging={{
          state: paging,
          perPageOptions: [25, 50, 100, 250],
          firstAndLast: true,
        }}
        renderRow={(event) => (
          <>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>
              {format(new Date(event.created_at), 'dd/MM/yyyy HH:mm:ss')}
            </TableCell>
            <TableCell sx={{ wordBreak: 'break-word' }}>{event.admin_user_name}</TableCell>
            <TableCell>{event.action_label}</TableCell>
            <TableCell
              sx={{ maxWidth: 260 }}
              title={event.participant_ids.length > SHOWN_IDS ? event.participant_ids.join(', ') : undefined}
            >
              {participants(event)}
            </TableCell>
            <TableCell sx={{ maxWidth: 320, wordBreak: 'break-word' }}>{event.detail ?? '—'}</TableCell>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{event.ip ?? '—'}</TableCell>
          </>
        )}
      />
    </>
  );
}
