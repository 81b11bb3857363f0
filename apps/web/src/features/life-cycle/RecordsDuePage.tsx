import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import TableCell from '@mui/material/TableCell';
import Typography from '@mui/material/Typography';
import { PARTICIPANT_STATUS_LABELS, messages, retentionRule, type RecordDue } from '@pathway/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDeleteDialog } from '../../components/ConfirmDeleteDialog';
import { PageHeader } from '../../components/PageHeader';
import { PagedTable } from '../../components/PagedTable';
import { QueryState } from '../../components/QueryState';
import { recordsDueQuery, useDestroyRecords } from './api';

function day(iso: string): string {
  const [y, m, d] = iso.split('-');
  return `${d}/${m}/${y}`;
}

/**
 * Records due for review (full access): discharged participants whose retention period
 * has ended. Nothing is destroyed until a person selects records here and confirms; the rule is
 * said on the screen.
 */
export function RecordsDuePage() {
  const due = useQuery(recordsDueQuery);
  const destroy = useDestroyRecords();
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState<string | null>(null);

  function toggle(id: number) {
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }

  return (
    <>
      <PageHeader title="Records due for review">
        Participants discharged long enough ago that their record may be destroyed.
      </PageHeader>
      {done && (
        <Alert severity="success" sx={{ mb: 2 }} onClose={() => setDone(null)}>
          {done}
        </Alert>
      )}
      <QueryState query={due} loadingLabel="Loading the records due for review">
        {(data) => {
          const rows = data.data;
          const chosen = rows.filter((r) => selected.has(r.participant_id));
          return (
            <>
              <Alert severity="info" sx={{ mb: 2 }}>
                {retentionRule(data.retention_years)}
              </Alert>
              {rows.length === 0 ? (
                <Typography>No records are due for review.</Typography>
              ) : (
                <>
                  <PagedTable
                    sx={{ mb: 2 }}
                    size="small"
                    caption={`${rows.length} ${rows.length === 1 ? 'record' : 'records'} due for review, discharged longest ago first`}
                    columns={[
                      {
                        label: 'Select',
                        padding: 'checkbox',
                        header: (
                          <Checkbox
                            slotProps={{ input: { 'aria-label': 'Select every record' } }}
                            checked={chosen.length === rows.length}
                            indeterminate={chosen.length > 0 && chosen.length < rows.length}
                            onChange={(event) =>
                              setSelected(
                                event.target.checked ? new Set(rows.map((r) => r.participant_id)) : new Set(),
                              )
                            }
                          />
                        ),
                      },
                      'Participant ID',
                      'Name',
                      'Date of birth',
                      'Outcome',
                      'Discharged on',
                      'Due for review on',
                    ]}
                    rows={rows}
                    rowKey={(r) => r.participant_id}
                    rowProps={(r) => ({ selected: selected.has(r.participant_id) })}
                    empty="No records are due for review."
                    renderRow={(r: RecordDue) => (
                      <>
                        <TableCell padding="checkbox">
                          <Checkbox
                            slotProps={{
                              input: { 'aria-label': `Select participant ${r.participant_id}` },
                            }}
                            checked={selected.has(r.participant_id)}
                            onChange={() => toggle(r.participant_id)}
                          />
                        </TableCell>
                        <TableCell>{r.participant_id}</TableCell>
                        <TableCell>{`${r.first_name} ${r.last_name}`}</TableCell>
                        <TableCell>{day(r.date_of_birth)}</TableCell>
                        <TableCell>{PARTICIPANT_STATUS_LABELS[r.status]}</TableCell>
                        <TableCell>{day(r.discharged_on)}</TableCell>
                        <TableCell>{day(r.review_due_on)}</TableCell>
                      </>
                    )}
                  />
                  <Button
                    variant="contained"
                    color="error"
                    disabled={chosen.length === 0}
                    onClick={() => {
                      destroy.reset();
                      setConfirming(true);
                    }}
                  >
                    Destroy selected records
                  </Button>
                </>
              )}
              {confirming && (
                <ConfirmDeleteDialog
                  id="destroy-records"
                  title={`Destroy ${chosen.length} ${chosen.length === 1 ? 'record' : 'records'}`}
                  text={
                    <>
                      {messages.records.destroyConfirm} Participants:{' '}
                      <strong>
                        {chosen.map((r) => `${r.participant_id} (${r.first_name} ${r.last_name})`).join(', ')}
                      </strong>
                      .
                    </>
                  }
                  confirmLabel="Destroy"
                  maxWidth="sm"
                  error={destroy.error}
                  pending={destroy.isPending}
                  onConfirm={() =>
                    destroy.mutate(
                      chosen.map((r) => r.participant_id),
                      {
                        onSuccess: (answer) => {
                          setConfirming(false);
                          setSelected(new Set());
                          setDone(answer.message);
                        },
                      },
                    )
                  }
                  onClose={() => setConfirming(false)}
                />
              )}
            </>
          );
        }}
      </QueryState>
    </>
  );
}
