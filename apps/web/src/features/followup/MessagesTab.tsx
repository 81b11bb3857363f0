import TableCell from '@mui/material/TableCell';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { PagedTable, usePaging } from '../../components/PagedTable';
import { contactExact } from '../../lib/contactTime';
import { useFieldAccess } from '../../lib/session';
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
  const paging = usePaging(50);
  const messages = useQuery(messagesQuery(participantId, paging.page + 1, paging.perPage));
  return (
    <section aria-labelledby="participant-messages-heading">
      <Typography id="participant-messages-heading" variant="h3" sx={{ mb: 1.5 }}>
        Messages
      </Typography>
      <PagedTable
        query={messages}
        loadingLabel="Loading the messages"
        label="Push messages, newest first"
        size="small"
        wrapHeaders
        columns={[
          'Queued',
          'Kind',
          ...(texts ? ['Message'] : []),
          'Status',
          'Firebase answered',
          'Sent',
          'Token',
        ]}
        rowKey={(m) => m.push_id}
        empty="No message has been sent to this participant."
        paging={{ state: paging, perPageOptions: [25, 50, 100] }}
        renderRow={(m) => (
          <>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{contactExact(m.queued_at)}</TableCell>
            <TableCell>{KIND_LABELS[m.kind] ?? m.kind}</TableCell>
            {texts && (
              <TableCell sx={{ wordBreak: 'break-word', maxWidth: 260 }}>
                <strong>{m.title}</strong> {m.body}
              </TableCell>
            )}
            <TableCell sx={{ wordBreak: 'break-word' }}>{m.status}</TableCell>
            <TableCell sx={{ wordBreak: 'break-word', maxWidth: 220 }}>{m.provider_answer ?? '—'}</TableCell>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{m.sent_at ? contactExact(m.sent_at) : '—'}</TableCell>
            <TableCell sx={{ fontFamily: 'monospace' }}>{m.token_tail ? `…${m.token_tail}` : '—'}</TableCell>
          </>
        )}
      />
    </section>
  );
}
