import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { QueryState } from '../../../components/QueryState';
import { contactExact } from '../../../lib/contactTime';
import { useFieldAccess } from '../../../lib/session';
import { messagesQuery } from './api';

const KIND_LABELS: Record<string, string> = {
  manual: 'Staff message',
  'progress-forward': 'Participant notified',
  'new-video': 'New video reminder',
  'missed-video': 'Missed video reminder',
};

/** Every push message to the participant and what became of it. Reading it sends nothing. */
export function MessagesTab({ participantId }: { participantId: number }) {
  const can = useFieldAccess();
  const texts = can('identifiable');
  const [page, setPage] = useState(0);
  const [perPage, setPerPage] = useState(50);
  const messages = useQuery(messagesQuery(participantId, page + 1, perPage));
  return (
    <section aria-labelledby="participant-messages-heading">
      <Typography id="participant-messages-heading" variant="h3" sx={{ mb: 1.5 }}>
        Messages
      </Typography>
      <QueryState query={messages} loadingLabel="Loading the messages">
        {(data) =>
          data.pagination.total === 0 ? (
            <Typography>No message has been sent to this participant.</Typography>
          ) : (
            <Paper variant="outlined">
              <TableContainer>
                <Table size="small" aria-label="Push messages, newest first">
                  <TableHead>
                    <TableRow>
                      <TableCell>Queued</TableCell>
                      <TableCell>Kind</TableCell>
                      {texts && <TableCell>Message</TableCell>}
                      <TableCell>Status</TableCell>
                      <TableCell>Firebase answered</TableCell>
                      <TableCell>Sent</TableCell>
                      <TableCell>Token</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {data.data.map((m) => (
                      <TableRow key={m.push_id}>
                        <TableCell sx={{ whiteSpace: 'nowrap' }}>{contactExact(m.queued_at)}</TableCell>
                        <TableCell>{KIND_LABELS[m.kind] ?? m.kind}</TableCell>
                        {texts && (
                          <TableCell sx={{ wordBreak: 'break-word', maxWidth: 260 }}>
                            <strong>{m.title}</strong> {m.body}
                          </TableCell>
                        )}
                        <TableCell sx={{ wordBreak: 'break-word' }}>{m.status}</TableCell>
                        <TableCell sx={{ wordBreak: 'break-word', maxWidth: 220 }}>
                          {m.provider_answer ?? '—'}
                        </TableCell>
                        <TableCell sx={{ whiteSpace: 'nowrap' }}>
                          {m.sent_at ? contactExact(m.sent_at) : '—'}
                        </TableCell>
                        <TableCell sx={{ fontFamily: 'monospace' }}>
                          {m.token_tail ? `…${m.token_tail}` : '—'}
                        </TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </TableContainer>
              <TablePagination
                component="div"
                count={data.pagination.total}
                page={page}
                rowsPerPage={perPage}
                rowsPerPageOptions={[25, 50, 100]}
                onPageChange={(_event, next) => setPage(next)}
                onRowsPerPageChange={(event) => {
                  setPerPage(Number(event.target.value));
                  setPage(0);
                }}
              />
            </Paper>
          )
        }
      </QueryState>
    </section>
  );
}
