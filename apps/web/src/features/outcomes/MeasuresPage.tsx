import AddIcon from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import TableCell from '@mui/material/TableCell';
import Typography from '@mui/material/Typography';
import { apiRoutes, unitLabel, type Measure } from '@pathway/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { NoticeSnackbar } from '../../components/NoticeSnackbar';
import { PageHeader } from '../../components/PageHeader';
import { ACTIONS_COLUMN, PagedTable } from '../../components/PagedTable';
import { WarningAlert } from '../../components/WarningAlert';
import { useCanCall } from '../../lib/session';
import { measuresQuery, useUpdateMeasure } from './api';
import { MeasureDialog } from './MeasureDialog';

const columns = ['Code', 'Measure', 'Records', 'Plausible range', 'MCID', 'Results', ACTIONS_COLUMN];

function RetireButton({ measure, onDone }: { measure: Measure; onDone: (message: string) => void }) {
  const update = useUpdateMeasure(measure.measure_id);
  return (
    <>
      <Button
        size="small"
        color={measure.retired ? 'primary' : 'error'}
        loading={update.isPending}
        aria-label={`${measure.retired ? 'Bring back' : 'Retire'} ${measure.name}`}
        onClick={() =>
          update.mutate(
            { retired: !measure.retired },
            {
              onSuccess: () =>
                onDone(measure.retired ? `${measure.name} is current again` : `${measure.name} is retired`),
            },
          )
        }
      >
        {measure.retired ? 'Bring back' : 'Retire'}
      </Button>
      {update.error && <WarningAlert message={update.error.message} />}
    </>
  );
}

/**
 * The catalogue of outcome measures (full access): the shipped walking measures and GAD-7, and any
 * an operator adds (a licensed instrument under their own licence). A measure with results can be
 * renamed or retired, never changed in what it records.
 */
export function MeasuresPage() {
  const canCall = useCanCall();
  const measures = useQuery(measuresQuery);
  const [editing, setEditing] = useState<Measure | 'new' | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const canChange = canCall(apiRoutes.outcomes.updateMeasure);

  return (
    <>
      <PageHeader
        title="Outcome measures"
        actions={
          canCall(apiRoutes.outcomes.createMeasure) && (
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing('new')}>
              Add a measure
            </Button>
          )
        }
      >
        What staff assess participants with. Each video set&apos;s schedule says which to take when (Video
        Sets, Assessments). A measure with results keeps what it records: a new version is a new measure.
      </PageHeader>
      <PagedTable
        query={measures}
        loadingLabel="Loading the measures"
        label="Outcome measures"
        minWidth={900}
        columns={columns}
        rowKey={(m) => m.measure_id}
        rowProps={(m) => ({ 'data-measure': m.code })}
        empty="No measure yet."
        renderRow={(m) => (
          <>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{m.code}</TableCell>
            <TableCell sx={{ minWidth: 200 }}>
              {m.name}
              {m.retired && <Chip size="small" label="Retired" sx={{ ml: 1 }} />}
              {m.licence && (
                <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                  {m.licence}
                </Typography>
              )}
            </TableCell>
            <TableCell>
              {m.kind === 'questionnaire'
                ? `${m.items?.length ?? 0} items, ${m.scoring === 'mean' ? 'mean' : 'sum'}${
                    m.items?.some((i) => i.reversed) ? ', some reversed' : ''
                  }`
                : unitLabel(m.unit)}
            </TableCell>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>
              {m.min.toLocaleString('en-GB')} to {m.max.toLocaleString('en-GB')}
              {m.higher_is_better ? ', higher better' : ', lower better'}
            </TableCell>
            <TableCell sx={{ minWidth: 220 }}>
              {m.mcid === null ? 'None' : `${m.mcid.toLocaleString('en-GB')} ${unitLabel(m.unit)}`}
              {m.mcid_source && (
                <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                  {m.mcid_source}
                </Typography>
              )}
            </TableCell>
            <TableCell>{m.has_results ? 'Yes' : 'None yet'}</TableCell>
            <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
              {canChange && (
                <>
                  <Button size="small" aria-label={`Change ${m.name}`} onClick={() => setEditing(m)}>
                    Change
                  </Button>
                  <RetireButton measure={m} onDone={setNotice} />
                </>
              )}
            </TableCell>
          </>
        )}
      />
      {editing !== null && (
        <MeasureDialog measure={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} />
      )}
      <NoticeSnackbar notice={notice} onClose={() => setNotice(null)} />
    </>
  );
}
