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
  ASSESSMENT_NOTE_MAX,
  TIMEPOINT_LABELS,
  TIMEPOINTS,
  scoreAnswers,
  todayIsoDate,
  unitLabel,
  type Measure,
  type Timepoint,
} from '@pathway/contract';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { FormDialog } from '../../components/form/FormDialog';
import { QueryState } from '../../components/QueryState';
import { useFieldAccess } from '../../lib/session';
import { measuresQuery, participantOutcomesQuery, useRecordResult } from './api';
import { measureLabel, rangeHint, unitWarning } from './measureText';

export interface RecordResultDefaults {
  timepoint?: Timepoint;
  week?: number | null;
  measure?: string;
}

/** The answers of a questionnaire as the form holds them: item id to the chosen value, as text. */
type Answers = Record<string, string>;

function QuestionnaireFields({
  measure,
  answers,
  onChange,
}: {
  measure: Measure;
  answers: Answers;
  onChange: (answers: Answers) => void;
}) {
  const items = measure.items ?? [];
  const complete = items.every((item) => answers[item.item_id] !== undefined);
  const score = complete
    ? scoreAnswers(
        { scoring: measure.scoring ?? 'sum', items, decimals: measure.decimals },
        Object.fromEntries(items.map((item) => [item.item_id, Number(answers[item.item_id])])),
      )
    : null;
  return (
    <Stack spacing={2}>
      {measure.instructions && <Typography variant="body2">{measure.instructions}</Typography>}
      {items.map((item, i) => (
        <FormControl key={item.item_id} component="fieldset">
          <FormLabel component="legend" id={`record-result-item-${item.item_id}`}>
            {i + 1}. {item.text}
          </FormLabel>
          <RadioGroup
            row
            aria-labelledby={`record-result-item-${item.item_id}`}
            value={answers[item.item_id] ?? ''}
            onChange={(e) => onChange({ ...answers, [item.item_id]: e.target.value })}
          >
            {item.answers.map((a) => (
              <FormControlLabel key={a.value} value={String(a.value)} control={<Radio />} label={a.label} />
            ))}
          </RadioGroup>
        </FormControl>
      ))}
      <Typography aria-live="polite" sx={{ fontWeight: 600 }}>
        {score === null
          ? `Score: answer every item (${items.length - Object.keys(answers).length} left)`
          : `Score: ${score} (${measure.scoring === 'mean' ? 'the mean' : 'the sum'} of the answers, worked out by the server when saved)`}
      </Typography>
    </Stack>
  );
}

/**
 * Record a result against one participant, named in the title: the timepoint, the measure, the
 * day taken and the value in the measure's unit (or the questionnaire's answers, which the server
 * scores). A value far from the participant's baseline asks to be confirmed, for a value typed in
 * another unit. The server checks everything again and answers with the contract's message.
 */
export function RecordResultDialog({
  participantId,
  who,
  defaults = {},
  onClose,
  onRecorded,
}: {
  participantId: number;
  /** Whom the result is about, as the admin may see it (a name for full access, else the id). */
  who: string;
  defaults?: RecordResultDefaults;
  onClose: () => void;
  onRecorded: () => void;
}) {
  const can = useFieldAccess();
  const measures = useQuery(measuresQuery);
  const outcomes = useQuery(participantOutcomesQuery(participantId));
  const record = useRecordResult(participantId);
  // Until a choice is made: the defaults given, else the first assessment due (a worklist row's).
  const firstDue = outcomes.data?.due.find((d) => d.state === 'due');
  const [chosenTimepoint, setTimepoint] = useState<Timepoint | null>(defaults.timepoint ?? null);
  const [chosenWeek, setWeek] = useState<string | null>(defaults.week ? String(defaults.week) : null);
  const [chosenCode, setCode] = useState<string | null>(defaults.measure ?? null);
  const timepoint = chosenTimepoint ?? firstDue?.timepoint ?? 'baseline';
  const week = chosenWeek ?? (firstDue?.week ? String(firstDue.week) : '');
  const code = chosenCode ?? firstDue?.measure ?? '';
  const [takenOn, setTakenOn] = useState(todayIsoDate());
  const [value, setValue] = useState('');
  const [answers, setAnswers] = useState<Answers>({});
  const [note, setNote] = useState('');
  const [confirmed, setConfirmed] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const current = (measures.data ?? []).filter((m) => !m.retired);
  const measure = current.find((m) => m.code === code) ?? null;
  const baseline =
    measure && timepoint !== 'baseline'
      ? (outcomes.data?.results.find(
          (r) => r.measure === measure.code && r.timepoint === 'baseline' && !r.late_baseline,
        )?.score ?? null)
      : null;
  const warning = measure?.kind === 'numeric' ? unitWarning(Number(value), baseline, measure) : null;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setProblem(null);
    if (!measure) {
      setProblem('Choose the measure.');
      return;
    }
    if (measure.kind === 'numeric' && (value.trim() === '' || Number.isNaN(Number(value)))) {
      setProblem(`Give the value in ${unitLabel(measure.unit)}, as a number.`);
      return;
    }
    // A value far from the baseline is sent once it has been seen and confirmed as it is.
    if (warning && confirmed !== value) {
      setConfirmed(value);
      return;
    }
    record.mutate(
      {
        timepoint,
        ...(timepoint === 'interim' && week !== '' && { week: Number(week) }),
        measure: measure.code,
        taken_on: takenOn,
        ...(measure.kind === 'numeric'
          ? { value: Number(value) }
          : { answers: Object.fromEntries(Object.entries(answers).map(([k, v]) => [k, Number(v)])) }),
        note: note.trim() || undefined,
      },
      { onSuccess: onRecorded },
    );
  };

  const interimWeeks = (outcomes.data?.due ?? [])
    .filter((d) => d.timepoint === 'interim' && d.week !== null)
    .map((d) => d.week!);
  const weeks = [...new Set(interimWeeks)].sort((a, b) => a - b);

  return (
    <FormDialog
      id="record-result"
      title={`Record a result: ${who}`}
      onClose={onClose}
      onSubmit={submit}
      pending={record.isPending}
      error={record.error}
      submitLabel={warning && confirmed === value ? 'Record anyway' : 'Record result'}
      maxWidth="md"
    >
      <QueryState query={measures} loadingLabel="Loading the measures">
        {() => (
          <Stack spacing={2.5} sx={{ pt: 1 }}>
            {problem && <Alert severity="warning">{problem}</Alert>}
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField
                select
                id="record-result-timepoint"
                label="Timepoint"
                value={timepoint}
                onChange={(e) => setTimepoint(e.target.value as Timepoint)}
                sx={{ minWidth: 200 }}
              >
                {TIMEPOINTS.map((tp) => (
                  <MenuItem key={tp} value={tp}>
                    {TIMEPOINT_LABELS[tp]}
                  </MenuItem>
                ))}
              </TextField>
              {timepoint === 'interim' && (
                <TextField
                  id="record-result-week"
                  label="Programme week"
                  type="number"
                  value={week}
                  onChange={(e) => setWeek(e.target.value)}
                  slotProps={{ htmlInput: { min: 1 } }}
                  helperText={weeks.length > 0 ? `Scheduled: week ${weeks.join(', ')}` : undefined}
                />
              )}
              <TextField
                id="record-result-taken-on"
                label="Date taken"
                type="date"
                value={takenOn}
                onChange={(e) => setTakenOn(e.target.value)}
                slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: todayIsoDate() } }}
              />
            </Stack>
            <TextField
              select
              id="record-result-measure"
              label="Measure"
              value={code}
              onChange={(e) => {
                setCode(e.target.value);
                setValue('');
                setAnswers({});
                setConfirmed(null);
              }}
            >
              {current.map((m) => (
                <MenuItem key={m.code} value={m.code}>
                  {measureLabel(m)}
                </MenuItem>
              ))}
            </TextField>
            {measure?.kind === 'numeric' && (
              <>
                <TextField
                  id="record-result-value"
                  label={`${measure.name} (${unitLabel(measure.unit)})`}
                  value={value}
                  onChange={(e) => setValue(e.target.value)}
                  slotProps={{
                    htmlInput: { inputMode: 'decimal' },
                    input: {
                      endAdornment: <InputAdornment position="end">{unitLabel(measure.unit)}</InputAdornment>,
                    },
                  }}
                  helperText={`${rangeHint(measure)}${measure.instructions ? ` ${measure.instructions}` : ''}`}
                />
                {warning && confirmed === value && (
                  <Alert severity="warning" role="alert">
                    {warning} Check it, then choose Record anyway.
                  </Alert>
                )}
              </>
            )}
            {measure?.kind === 'questionnaire' && (
              <QuestionnaireFields measure={measure} answers={answers} onChange={setAnswers} />
            )}
            <TextField
              id="record-result-note"
              label="Note (optional)"
              value={note}
              onChange={(e) => setNote(e.target.value)}
              multiline
              minRows={2}
              slotProps={{ htmlInput: { maxLength: ASSESSMENT_NOTE_MAX } }}
              helperText={
                can('identifiable')
                  ? `At most ${ASSESSMENT_NOTE_MAX.toLocaleString('en-GB')} characters.`
                  : 'Notes are read by full-access admins only.'
              }
            />
          </Stack>
        )}
      </QueryState>
    </FormDialog>
  );
}
