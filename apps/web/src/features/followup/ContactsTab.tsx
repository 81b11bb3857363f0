import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Typography from '@mui/material/Typography';
import { CONTACT_METHOD_LABELS, CONTACT_OUTCOME_LABELS } from '@pathway/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { QueryState } from '../../components/QueryState';
import { formatLongDate } from '../../lib/dates';
import { contactExact } from '../../lib/contactTime';
import { useFieldAccess } from '../../lib/session';
import { contactsQuery } from './api';
import { ReasonChips } from './ReasonChips';
import { RecordContactDialog } from './RecordContactDialog';

/** The contact log of one participant, newest first, and the button that adds to it. */
export function ContactsTab({ participantId, who }: { participantId: number; who: string }) {
  const can = useFieldAccess();
  const contacts = useQuery(contactsQuery(participantId));
  const [recording, setRecording] = useState(false);
  return (
    <section aria-labelledby="participant-contacts-heading">
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', mb: 1.5, gap: 2 }}>
        <Typography id="participant-contacts-heading" variant="h3">
          Contact log
        </Typography>
        <Button variant="contained" onClick={() => setRecording(true)}>
          Record contact
        </Button>
      </Box>
      <QueryState query={contacts} loadingLabel="Loading the contact log">
        {(entries) =>
          entries.length === 0 ? (
            <Typography>No contact recorded yet.</Typography>
          ) : (
            <List aria-label="Contact attempts, newest first">
              {entries.map((c) => (
                <ListItem key={c.contact_id} divider sx={{ display: 'block', px: 0 }}>
                  <Typography sx={{ fontWeight: 600 }}>
                    {contactExact(c.created_at)} · {CONTACT_METHOD_LABELS[c.method]} ·{' '}
                    {CONTACT_OUTCOME_LABELS[c.outcome]}
                  </Typography>
                  <Typography variant="body2">By {c.admin_user_name}</Typography>
                  {c.next_followup_on && (
                    <Typography variant="body2">
                      Next follow-up: {formatLongDate(c.next_followup_on)}
                    </Typography>
                  )}
                  {c.reasons.length > 0 && (
                    <Box sx={{ mt: 0.5 }}>
                      <ReasonChips reasons={c.reasons} />
                    </Box>
                  )}
                  {c.has_note &&
                    (can('identifiable') && c.note ? (
                      <Typography sx={{ mt: 0.5, whiteSpace: 'pre-line', wordBreak: 'break-word' }}>
                        {c.note}
                      </Typography>
                    ) : (
                      <Typography variant="body2" sx={{ mt: 0.5, fontStyle: 'italic' }}>
                        A note was recorded (full access reads it).
                      </Typography>
                    ))}
                </ListItem>
              ))}
            </List>
          )
        }
      </QueryState>
      {recording && (
        <RecordContactDialog
          participantId={participantId}
          who={who}
          onClose={() => setRecording(false)}
          onRecorded={() => setRecording(false)}
        />
      )}
    </section>
  );
}
