import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormLabel from '@mui/material/FormLabel';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { apiRoutes, type AssessmentSchedule, type Measure } from '@pathway/contract';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { NoticeSnackbar } from '../../components/NoticeSnackbar';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { WarningAlert } from '../../components/WarningAlert';
import { call } from '../../lib/api';
import { videoSetKeys } from '../../lib/queryKeys';
import { useCanCall } from '../../lib/session';
import { measuresQuery, scheduleQuery, useSaveSchedule } from './api';
import { measureLabel } from './measureText';

interface Draft {
  baseline: string[];
  end: string[];
  interims: { week: string; measures: string[] }[];
}

function draftOf(schedule: AssessmentSchedule): Draft {
  const of = (tp: 'baseline' | 'end') => schedule.timepoints.find((t) => t.timepoint === tp)?.measures ?? [];
  return {
    baseline: of('baseline'),
    end: of('end'),
    interims: schedule.timepoints
      .filter((t) => t.timepoint === 'interim')
      .map((t) => ({ week: String(t.week ?? ''), measures: t.measures })),
  };
}

function scheduleOf(draft: Draft, order: string[]): AssessmentSchedule {
  const sorted = (codes: string[]) => order.filter((c) => codes.includes(c));
  return {
    timepoints: [
      ...(draft.baseline.length > 0
        ? [{ timepoint: 'baseline' as const, measures: sorted(draft.baseline) }]
        : []),
      ...draft.interims.map((i) => ({
        timepoint: 'interim' as const,
        week: Number(i.week),
        measures: sorted(i.measures),
      })),
      ...(draft.end.length > 0 ? [{ timepoint: 'end' as const, measures: sorted(draft.end) }] : []),
    ],
  };
}

function MeasureChoices({
  legend,
  measures,
  chosen,
  onChange,
  disabled,
}: {
  legend: string;
  measures: Measure[];
  chosen: string[];
  onChange: (codes: string[]) => void;
  disabled: boolean;
}) {
  return (
    <FormControl component="fieldset" disabled={disabled}>
      <FormLabel component="legend">{legend}</FormLabel>
      <FormGroup row>
        {measures.map((m) => (
          <FormControlLabel
            key={m.code}
            label={measureLabel(m)}
            control={
              <Checkbox
                checked={chosen.includes(m.code)}
                onChange={(e) =>
                  onChange(e.target.checked ? [...chosen, m.code] : chosen.filter((c) => c !== m.code))
                }
              />
            }
          />
        ))}
      </FormGroup>
    </FormControl>
  );
}

function ScheduleForm({
  setId,
  weeks,
  schedule,
  measures,
}: {
  setId: number;
  weeks: number;
  schedule: AssessmentSchedule;
  measures: Measure[];
}) {
  const canCall = useCanCall();
  const editable = canCall(apiRoutes.outcomes.saveSchedule);
  const save = useSaveSchedule(setId);
  const [draft, setDraft] = useState<Draft>(() => draftOf(schedule));
  const [notice, setNotice] = useState<string | null>(null);
  // A retired measure stays shown where the schedule names it, and cannot be added anew.
  const offered = measures.filter(
    (m) => !m.retired || schedule.timepoints.some((t) => t.measures.includes(m.code)),
  );
  const order = measures.map((m) => m.code);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(scheduleOf(draft, order), { onSuccess: () => setNotice('Assessment schedule saved') });
  };

  return (
    <Paper variant="outlined" component="form" onSubmit={submit} noValidate sx={{ p: 2 }}>
      <Stack spacing={3}>
        {save.error && <WarningAlert message={save.error.message} />}
        <MeasureChoices
          legend="Baseline: due from registration until the end of the first week"
          measures={offered}
          chosen={draft.baseline}
          onChange={(baseline) => setDraft({ ...draft, baseline })}
          disabled={!editable}
        />
        {draft.interims.map((interim, i) => (
          <Box key={i} sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'flex-start' }}>
            <TextField
              id={`schedule-interim-${i}-week`}
              label="Interim: week"
              type="number"
              size="small"
              value={interim.week}
              disabled={!editable}
              onChange={(e) =>
                setDraft({
                  ...draft,
                  interims: draft.interims.map((x, j) => (j === i ? { ...x, week: e.target.value } : x)),
                })
              }
              slotProps={{ htmlInput: { min: 1, max: weeks } }}
              helperText={`1 to ${weeks}; due from its first day until 4 weeks after its last`}
              sx={{ maxWidth: 220 }}
            />
            <MeasureChoices
              legend={`Interim ${i + 1}: measures`}
              measures={offered}
              chosen={interim.measures}
              onChange={(codes) =>
                setDraft({
                  ...draft,
                  interims: draft.interims.map((x, j) => (j === i ? { ...x, measures: codes } : x)),
                })
              }
              disabled={!editable}
            />
            {editable && (
              <Button
                color="error"
                onClick={() => setDraft({ ...draft, interims: draft.interims.filter((_, j) => j !== i) })}
              >
                Remove interim {i + 1}
              </Button>
            )}
          </Box>
        ))}
        {editable && (
          <Box>
            <Button
              onClick={() =>
                setDraft({
                  ...draft,
                  interims: [
                    ...draft.interims,
                    { week: String(Math.max(1, Math.ceil(weeks / 2))), measures: [] },
                  ],
                })
              }
            >
              Add an interim assessment
            </Button>
          </Box>
        )}
        <MeasureChoices
          legend="End: due from the first day of the last week until 4 weeks after it (or from a discharge as completed)"
          measures={offered}
          chosen={draft.end}
          onChange={(end) => setDraft({ ...draft, end })}
          disabled={!editable}
        />
        {editable ? (
          <Box>
            <Button type="submit" variant="contained" loading={save.isPending}>
              Save the schedule
            </Button>
          </Box>
        ) : (
          <Alert severity="info">Full-access admins change the schedule.</Alert>
        )}
      </Stack>
      <NoticeSnackbar notice={notice} onClose={() => setNotice(null)} />
    </Paper>
  );
}

/**
 * The assessment schedule of one video set: which measures to take at the baseline, at interim
 * weeks and at the end. What is due for each participant on the set follows from it.
 */
export function SchedulePage() {
  const setId = Number(useParams().fitness_video_set_id);
  const set = useQuery({
    queryKey: videoSetKeys.detail(setId),
    queryFn: ({ signal }) => call(apiRoutes.videoSets.get, { params: { id: setId }, signal }),
  });
  const schedule = useQuery(scheduleQuery(setId));
  const measures = useQuery(measuresQuery);
  return (
    <>
      <PageHeader
        title={set.data ? `Assessments: ${set.data.set_name}` : 'Assessments'}
        actions={
          <Button component={RouterLink} to="/videoset">
            Back to the video sets
          </Button>
        }
      >
        When participants on this set are assessed, and with which measures. An assessment due and not
        recorded puts the participant on the Follow-up worklist.
      </PageHeader>
      <QueryState query={set} loadingLabel="Loading the video set">
        {(videoSet) => (
          <QueryState query={schedule} loadingLabel="Loading the schedule">
            {(current) => (
              <QueryState query={measures} loadingLabel="Loading the measures">
                {(list) => (
                  <>
                    <Typography sx={{ mb: 2 }}>
                      {videoSet.number_of_weeks} weeks of {videoSet.videos_in_week} exercise days.
                    </Typography>
                    <ScheduleForm
                      setId={setId}
                      weeks={videoSet.number_of_weeks}
                      schedule={current}
                      measures={list}
                    />
                  </>
                )}
              </QueryState>
            )}
          </QueryState>
        )}
      </QueryState>
    </>
  );
}
