import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { apiRoutes } from '@pathway/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { QueryState } from '../../components/QueryState';
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
  const [page, setPage] = useState(0);
  const [perPage, setPerPage] = useState(25);
  const [flaggedOnly, setFlaggedOnly] = useState(false);
  const canCall = useCanCall();
  // Kept as long as the audit trail: said when the role may read the retention policy.
  const retention = useQuery({ ...retentionQuery, enabled: canCall(apiRoutes.retention.policy) });
  const records = useQuery({
    ...deviceSignInsQuery(page + 1, perPage, flaggedOnly),
    placeholderData: keepPreviousData,
  });

  return (
    <section aria-labelledby="device-sign-ins-heading">
      <Stack
        direction="row"
        sx={{ mt: 4, mb: 1, alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap' }}
      >
        <Typography id="device-sign-ins-heading" variant="h2">
          Device sign-ins
        </Typography>
        <FormControlLabel
          control={
            <Switch
              checked={flaggedOnly}
              onChange={(_event, checked) => {
                setFlaggedOnly(checked);
                setPage(0);
              }}
            />
          }
          label="Flagged only"
        />
      </Stack>
      <Typography sx={{ mb: 2 }}>
        Every sign-in of the tablet app (a token handed out) and every change of its push token, newest first.
        The app sends its push token without a sign-in, so anyone holding a device ID can send one: changes
        are listed here.
        {retention.data && auditRecordsKept(retention.data.audit_retention_days)}
      </Typography>
      <QueryState query={records} loadingLabel="Loading device sign-ins">
        {(data) => (
          <TableContainer component={Paper} variant="outlined">
            <Table aria-label="Device sign-ins" size="small">
              <TableHead>
                <TableRow>
                  <TableCell>When</TableCell>
                  <TableCell>What</TableCell>
                  <TableCell>Device</TableCell>
                  <TableCell>Participant ID</TableCell>
                  <TableCell>Address</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {data.data.map((record) => (
                  <TableRow key={record.device_sign_in_id}>
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
                  </TableRow>
                ))}
                {data.data.length === 0 && (
                  <TableRow>
                    <TableCell colSpan={5}>No sign-ins recorded yet.</TableCell>
                  </TableRow>
                )}
              </TableBody>
            </Table>
            <TablePagination
              component="div"
              count={data.total}
              page={page}
              rowsPerPage={perPage}
              rowsPerPageOptions={[25, 50, 100]}
              onPageChange={(_event, next) => setPage(next)}
              onRowsPerPageChange={(event) => {
                setPerPage(Number(event.target.value));
                setPage(0);
              }}
            />
          </TableContainer>
        )}
      </QueryState>
    </section>
  );
}
