import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  MEASURE_KINDS,
  MEASURE_UNITS,
  QUESTIONNAIRE_UNIT,
  SCORING_RULES,
  questionnaireRange,
  type CreateMeasureBody,
  type Measure,
  type MeasureItem,
  type MeasureKind,
  type ScoringRule,
} from '@pathway/contract';
import { useState, type FormEvent } from 'react';
import { FormDialog } from '../../components/form/FormDialog';
import { useCreateMeasure, useUpdateMeasure } from './api';

interface ItemDraft {
  item_id: string;
  text: string;
  reversed: boolean;
  /** One answer a line: "value label", e.g. "0 Not at all". */
  answers: string;
}

const NUMERIC_UNITS = Object.keys(MEASURE_UNITS).filter((u) => u !== QUESTIONNAIRE_UNIT);

function answersOf(text: string): { value: number; label: string }[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const match = /^(-?\d+(?:\.\d+)?)\s+(.+)$/.exec(line);
      return match ? { value: Number(match[1]), label: match[2]! } : { value: Number.NaN, label: line };
    });
}

const draftOf = (item: MeasureItem): ItemDraft => ({
  item_id: item.item_id,
  text: item.text,
  reversed: item.reversed ?? false,
  answers: item.answers.map((a) => `${a.value} ${a.label}`).join('\n'),
});

const itemsOf = (drafts: ItemDraft[]): MeasureItem[] =>
  drafts.map((d) => ({
    item_id: d.item_id.trim(),
    text: d.text.trim(),
    ...(d.reversed && { reversed: true }),
    answers: answersOf(d.answers),
  }));

const numberOrNull = (text: string) => (text.trim() === '' ? null : Number(text));

/**
 * Add a measure, or change one. A measure with results keeps what it records: only its name and
 * whether it is retired can change (the server refuses the rest), so the other fields are shown and
 * not offered. A questionnaire's score range is worked out from its items and rule.
 */
export function MeasureDialog({ measure, onClose }: { measure?: Measure; onClose: () => void }) {
  const create = useCreateMeasure();
  const update = useUpdateMeasure(measure?.measure_id ?? 0);
  const locked = measure?.has_results === true;
  const [code, setCode] = useState(measure?.code ?? '');
  const [name, setName] = useState(measure?.name ?? '');
  const [kind, setKind] = useState<MeasureKind>(measure?.kind ?? 'numeric');
  const [unit, setUnit] = useState(measure && measure.kind === 'numeric' ? measure.unit : 'm');
  const [min, setMin] = useState(measure ? String(measure.min) : '');
  const [max, setMax] = useState(measure ? String(measure.max) : '');
  const [decimals, setDecimals] = useState(String(measure?.decimals ?? 0));
  const [higher, setHigher] = useState(measure?.higher_is_better ?? true);
  const [mcid, setMcid] = useState(measure?.mcid === null || !measure ? '' : String(measure.mcid));
  const [mcidSource, setMcidSource] = useState(measure?.mcid_source ?? '');
  const [instructions, setInstructions] = useState(measure?.instructions ?? '');
  const [licence, setLicence] = useState(measure?.licence ?? '');
  const [loinc, setLoinc] = useState(measure?.loinc ?? '');
  const [scoring, setScoring] = useState<ScoringRule>(measure?.scoring ?? 'sum');
  const [items, setItems] = useState<ItemDraft[]>(
    measure?.items?.map(draftOf) ?? [{ item_id: '1', text: '', reversed: false, answers: '' }],
  );
  const pending = create.isPending || update.isPending;
  const error = create.error ?? update.error;

  const questionnaire = kind === 'questionnaire';
  const range = (() => {
    if (!questionnaire) return null;
    const parsed = itemsOf(items);
    if (parsed.some((i) => i.answers.length < 2 || i.answers.some((a) => Number.isNaN(a.value)))) return null;
    return questionnaireRange({ scoring, items: parsed, decimals: Number(decimals) || 0 });
  })();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (locked) {
      update.mutate({ name }, { onSuccess: onClose });
      return;
    }
    const body: CreateMeasureBody = {
      code,
      name,
      kind,
      ...(questionnaire ? {} : { unit }),
      min: questionnaire ? (range?.min ?? Number.NaN) : Number(min),
      max: questionnaire ? (range?.max ?? Number.NaN) : Number(max),
      decimals: Number(decimals),
      higher_is_better: higher,
      mcid: numberOrNull(mcid),
      mcid_source: mcidSource || null,
      instructions: instructions || null,
      licence: licence || null,
      loinc: loinc.trim() || null,
      ...(questionnaire && { scoring, items: itemsOf(items) }),
    };
    if (measure) update.mutate(body, { onSuccess: onClose });
    else create.mutate(body, { onSuccess: onClose });
  };

  const setItem = (i: number, change: Partial<ItemDraft>) =>
    setItems(items.map((item, j) => (j === i ? { ...item, ...change } : item)));

  return (
    <FormDialog
      id="measure"
      title={measure ? `Change ${measure.name}` : 'Add a measure'}
      onClose={onClose}
      onSubmit={submit}
      pending={pending}
      error={error}
      maxWidth="md"
    >
      <Stack spacing={2.5} sx={{ pt: 1 }}>
        {locked && (
          <Alert severity="info">
            This measure has results, so only its name can change here (and it can be retired from the list):
            a new version is a new measure, so that old results keep their meaning.
          </Alert>
        )}
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <TextField
            id="measure-code"
            label="Code"
            value={code}
            onChange={(e) => setCode(e.target.value)}
            disabled={locked}
            required
            helperText="Short and unique: 6MWD, GAD-7"
          />
          <TextField
            id="measure-name"
            label="Name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            required
            fullWidth
          />
        </Stack>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <TextField
            select
            id="measure-kind"
            label="Kind"
            value={kind}
            onChange={(e) => setKind(e.target.value as MeasureKind)}
            disabled={locked}
            sx={{ minWidth: 180 }}
          >
            {MEASURE_KINDS.map((k) => (
              <MenuItem key={k} value={k}>
                {k === 'numeric' ? 'Numeric (a value)' : 'Questionnaire'}
              </MenuItem>
            ))}
          </TextField>
          {questionnaire ? (
            <TextField
              select
              id="measure-scoring"
              label="Score"
              value={scoring}
              onChange={(e) => setScoring(e.target.value as ScoringRule)}
              disabled={locked}
              sx={{ minWidth: 180 }}
            >
              {SCORING_RULES.map((r) => (
                <MenuItem key={r} value={r}>
                  {r === 'sum' ? 'Sum of the items' : 'Mean of the items'}
                </MenuItem>
              ))}
            </TextField>
          ) : (
            <TextField
              select
              id="measure-unit"
              label="Unit"
              value={unit}
              onChange={(e) => setUnit(e.target.value)}
              disabled={locked}
              sx={{ minWidth: 180 }}
            >
              {NUMERIC_UNITS.map((u) => (
                <MenuItem key={u} value={u}>
                  {(MEASURE_UNITS as Record<string, string>)[u]} ({u})
                </MenuItem>
              ))}
            </TextField>
          )}
          <TextField
            id="measure-decimals"
            label="Decimals"
            type="number"
            value={decimals}
            onChange={(e) => setDecimals(e.target.value)}
            disabled={locked}
            slotProps={{ htmlInput: { min: 0, max: 4 } }}
          />
        </Stack>
        {!questionnaire && (
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField
              id="measure-min"
              label="Smallest plausible value"
              value={min}
              onChange={(e) => setMin(e.target.value)}
              disabled={locked}
              slotProps={{ htmlInput: { inputMode: 'decimal' } }}
            />
            <TextField
              id="measure-max"
              label="Largest plausible value"
              value={max}
              onChange={(e) => setMax(e.target.value)}
              disabled={locked}
              slotProps={{ htmlInput: { inputMode: 'decimal' } }}
            />
          </Stack>
        )}
        <FormControlLabel
          control={
            <Checkbox checked={higher} onChange={(e) => setHigher(e.target.checked)} disabled={locked} />
          }
          label="Higher is better"
        />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <TextField
            id="measure-mcid"
            label="MCID (optional)"
            value={mcid}
            onChange={(e) => setMcid(e.target.value)}
            disabled={locked}
            slotProps={{ htmlInput: { inputMode: 'decimal' } }}
            helperText="Minimal clinically important difference, in the unit"
          />
          <TextField
            id="measure-loinc"
            label="LOINC code (optional)"
            value={loinc}
            onChange={(e) => setLoinc(e.target.value)}
            disabled={locked}
            helperText="Only a real code: 64098-7"
          />
        </Stack>
        <TextField
          id="measure-mcid-source"
          label="Source of the MCID"
          value={mcidSource}
          onChange={(e) => setMcidSource(e.target.value)}
          disabled={locked}
          multiline
        />
        <TextField
          id="measure-instructions"
          label="How to take it"
          value={instructions}
          onChange={(e) => setInstructions(e.target.value)}
          disabled={locked}
          multiline
        />
        {questionnaire && (
          <>
            <TextField
              id="measure-licence"
              label="Licence"
              value={licence}
              onChange={(e) => setLicence(e.target.value)}
              disabled={locked}
              multiline
              helperText="Who owns the instrument and under what licence it is used"
            />
            <Typography component="h3" variant="h3" sx={{ fontSize: '1rem', fontWeight: 600 }}>
              Items
            </Typography>
            {items.map((item, i) => (
              <Paper key={i} variant="outlined" sx={{ p: 2 }}>
                <Stack spacing={1.5}>
                  <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                    <TextField
                      id={`measure-item-${i}-id`}
                      label={`Item ${i + 1} id`}
                      value={item.item_id}
                      onChange={(e) => setItem(i, { item_id: e.target.value })}
                      disabled={locked}
                      sx={{ maxWidth: { sm: 140 } }}
                    />
                    <TextField
                      id={`measure-item-${i}-text`}
                      label={`Item ${i + 1} text`}
                      value={item.text}
                      onChange={(e) => setItem(i, { text: e.target.value })}
                      disabled={locked}
                      fullWidth
                    />
                  </Stack>
                  <TextField
                    id={`measure-item-${i}-answers`}
                    label={`Item ${i + 1} answers`}
                    value={item.answers}
                    onChange={(e) => setItem(i, { answers: e.target.value })}
                    disabled={locked}
                    multiline
                    minRows={3}
                    helperText="One a line: its value, a space, its label (0 Not at all)"
                  />
                  <Box sx={{ display: 'flex', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}>
                    <FormControlLabel
                      control={
                        <Checkbox
                          checked={item.reversed}
                          onChange={(e) => setItem(i, { reversed: e.target.checked })}
                          disabled={locked}
                        />
                      }
                      label="Scored in reverse"
                    />
                    {!locked && items.length > 1 && (
                      <Button color="error" onClick={() => setItems(items.filter((_, j) => j !== i))}>
                        Remove item {i + 1}
                      </Button>
                    )}
                  </Box>
                </Stack>
              </Paper>
            ))}
            {!locked && (
              <Box>
                <Button
                  onClick={() =>
                    setItems([
                      ...items,
                      { item_id: String(items.length + 1), text: '', reversed: false, answers: '' },
                    ])
                  }
                >
                  Add an item
                </Button>
              </Box>
            )}
            <Typography aria-live="polite">
              {range
                ? `Score range: ${range.min} to ${range.max}`
                : 'Score range: give every item at least two answers'}
            </Typography>
          </>
        )}
      </Stack>
    </FormDialog>
  );
}
