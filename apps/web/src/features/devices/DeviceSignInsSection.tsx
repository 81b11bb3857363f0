import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import TableCell from '@mui/material/TableCell';
import Typography from '@mui/material/Typography';
import { apiRoutes } from '@pathway/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { PageSection } from '../../components/PageSection';
import { PagedTable, usePaging } from '../../components/PagedTable';
import { contactExact } from '../../lib/contactTime';
import { auditRecordsKept, retentionQuery } from '../../lib/retention';
import { useCanCall } from '../../lib/session';
import { deviceSignInsQuery } from './api';

/**
 * Who used a device id, from where (full access). A device id is not a secret: every call 1
 * that handed out a token and every call 2 that changed a push token is listed, and a call 1
 * from a new address while the tablet was in use is flagged.
 */
export function DeviceSignInsSection() {
  const paging = usePaging(25);
  const [flaggedOnly, setFlaggedOnly] = useState(false);
  const canCall = useCanCall();
  // Kept as long as the audit trail: said when the role may read the retention policy.
  const retention = useQuery({ ...retentionQuery, enabled: canCall(apiRoutes.retention.policy) });
  const records = useQuery({
    ...deviceSignInsQuery(paging.page + 1, paging.perPage, flaggedOnly),
    placeholderData: keepPreviousData,
  });

  return (
    <PageSection
      headingId="device-sign-ins-heading"
      title="Device sign-ins"
      actions={
        <FormControlLabel
          control={
            <Switch
              checked={flaggedOnly}
              onChange={(_event, checked) => {
                setFlaggedOnly(checked);
                paging.setPage(0);
              }}
            />
          }
          label="Flagged only"
        />
      }
      description={
        <>
          Every sign-in of the tablet app (a token handed out) and every change of its push token, newest
          first. The app sends its push token without a sign-in, so anyone holding a device ID can send one:
          changes are listed here.
          {retention.data && auditRecordsKept(retention.data.audit_retention_days)}
        </>
      }
    >
      <PagedTable
        query={records}
        loadingLabel="Loading device sign-ins"
        label="Device sign-ins"
        size="small"
        columns={['When', 'What', 'Device', 'Participant ID', 'Address']}
        rowKey={(record) => record.device_sign_in_id}
        empty="No sign-ins recorded yet."
        paging={{ state: paging, perPageOptions: [25, 50, 100] }}
        renderRow={(record) => (
          <>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{contactExact(record.created_at)}</TableCell>
            <TableCell>
              {record.kind === 'token issued' ? 'Signed in' : 'Push token changed'}
              {record.flagged && (
                <Chip size="small" color="warning" label="New address while in use" sx={{ ml: 1 }} />
              )}
            </TableCell>
            <TableCell sx={{ wordBreak: 'break-all' }}>
              {record.device_name ?? 'Deleted device'}{' '}
              <Typography component="span" variant="body2" sx={{ fontFamily: 'monospace' }}>
                {record.device_uuid}
              </Typography>
            </TableCell>
            <TableCell>{record.participant_id ?? ''}</TableCell>
            <TableCell sx={{ fontFamily: 'monospace' }}>{record.ip_address}</TableCell>
          </>
        )}
      />
    </PageSection>
  );
}
