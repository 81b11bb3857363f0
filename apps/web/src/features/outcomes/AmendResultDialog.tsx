import Alert from '@mui/material/Alert';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  AMEND_REASON_MAX,
  TIMEPOINT_LABELS,
  unitLabel,
  type AssessmentEntry,
  type Measure,
} from '@pathway/contract';
import { useState, type FormEvent } from 'react';
import { FormDialog } from '../../components/form/FormDialog';
import { formatLongDate } from '../../lib/dates';
import { useAmendResult } from './api';
import { rangeHint, valueText } from './measureText';

type Kind = 'value' | 'error';

/**
 * Correct a result: a new value (or new answers), or mark it entered in error (recorded against the
 * wrong participant or measure), always with a reason. The result as first recorded stays in the
 * participant's results; the newest amendment is the value every view and report uses.
 */
export function AmendResultDialog({
  participantId,
  who,
  entry,
  measure,
  onClose,
  onAmended,
}: {
  participantId: number;
  who: string;
  /** The result's current row. */
  entry: AssessmentEntry;
  measure: Measure;
  onClose: () => void;
  onAmended: () => void;
}) {
  const amend = useAmendResult(participantId, entry.assessment_id);
  const [kind, setKind] = useState<Kind>('value');
  const [value, setValue] = useState(entry.value === null ? '' : String(entry.value));
  const [answers, setAnswers] = useState<Record<string, string>>(
    Object.fromEntries(Object.entries(entry.answers ?? {}).map(([k, v]) => [k, String(v)])),
  );
  const [reason, setReason] = useState('');

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const correction =
      kind === 'error'
        ? { entered_in_error: true as const }
        : measure.kind === 'numeric'
          ? { value: value.trim() === '' ? Number.NaN : Number(value) }
          : { answers: Object.fromEntries(Object.entries(answers).map(([k, v]) => [k, Number(v)])) };
    amend.mutate({ ...correction, reason }, { onSuccess: onAmended });
  };

  return (
    <FormDialog
      id="amend-result"
      title={`Amend a result: ${who}`}
      onClose={onClose}
      onSubmit={submit}
      pending={amend.isPending}
      error={amend.error}
      submitLabel="Save amendment"
      maxWidth="md"
    >
      <Stack spacing={2.5} sx={{ pt: 1 }}>
        <Typography>
          {measure.name}, {TIMEPOINT_LABELS[entry.timepoint]}
          {entry.week !== null ? ` (week ${entry.week})` : ''}, taken {formatLongDate(entry.taken_on)}:{' '}
          {entry.score === null ? 'entered in error' : valueText(entry.score, entry.unit)}. The result as
          recorded stays in the participant&apos;s results beside its amendment.
        </Typography>
        <TextField
          select
          id="amend-result-kind"
          label="Correction"
          value={kind}
          onChange={(e) => setKind(e.target.value as Kind)}
        >
          <MenuItem value="value">{measure.kind === 'numeric' ? 'A new value' : 'New answers'}</MenuItem>
          <MenuItem value="error">Entered in error (wrong participant or measure)</MenuItem>
        </TextField>
        {kind === 'error' && (
          <Alert severity="info">
            The result leaves every view, report and export; it stays in the participant&apos;s results,
            marked entered in error.
          </Alert>
        )}
        {kind === 'value' && measure.kind === 'numeric' && (
          <TextField
            id="amend-result-value"
            label={`${measure.name} (${unitLabel(measure.unit)})`}
            value={value}
            onChange={(e) => setValue(e.target.value)}
            slotProps={{
              htmlInput: { inputMode: 'decimal' },
              input: {
                endAdornment: <InputAdornment position="end">{unitLabel(measure.unit)}</InputAdornment>,
              },
            }}
            helperText={rangeHint(measure)}
          />
        )}
        {kind === 'value' &&
          measure.kind === 'questionnaire' &&
          (measure.items ?? []).map((item, i) => (
            <FormControl key={item.item_id} component="fieldset">
              <FormLabel component="legend" id={`amend-result-item-${item.item_id}`}>
                {i + 1}. {item.text}
              </FormLabel>
              <RadioGroup
                row
                aria-labelledby={`amend-result-item-${item.item_id}`}
                value={answers[item.item_id] ?? ''}
                onChange={(e) => setAnswers({ ...answers, [item.item_id]: e.target.value })}
              >
                {item.answers.map((a) => (
                  <FormControlLabel
                    key={a.value}
                    value={String(a.value)}
                    control={<Radio />}
                    label={a.label}
                  />
                ))}
              </RadioGroup>
            </FormControl>
          ))}
        <TextField
          id="amend-result-reason"
          label="Reason"
          required
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          multiline
          minRows={2}
          slotProps={{ htmlInput: { maxLength: AMEND_REASON_MAX } }}
          helperText="Why the result is corrected. Read by full-access admins only."
        />
      </Stack>
    </FormDialog>
  );
}
