import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import GlobalStyles from '@mui/material/GlobalStyles';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { Theme } from '@mui/material/styles';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import {
  OUTCOMES_REPORT_TITLE,
  REPORT_NAMES,
  REPORT_TITLES,
  outcomesTable,
  isCalendarDay,
  latestReportEnd,
  reportCsv,
  reportTables,
  type ReportName,
  type ReportTable,
  type ReportsAnswers,
} from '@pathway/contract';
import { useQuery } from '@tanstack/react-query';
import {
  createContext,
  startTransition,
  useContext,
  useEffect,
  useRef,
  useState,
  type FormEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import { flushSync } from 'react-dom';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { SiteFilterNotice, SiteSelect } from '../../components/SiteSelect';
import { isApiError } from '../../lib/api';
import { formatLongDate } from '../../lib/dates';
import { saveBlob } from '../../lib/download';
import { useSiteFilter } from '../../lib/siteFilter';
import {
  defaultPeriod,
  downloadWorkbook,
  measuresInUse,
  outcomesReportQuery,
  reportMeasuresQuery,
  reportQuery,
  type PeriodChoice,
} from './api';
import { SiteComparison } from './SiteComparison';

/** The address's mark of the side-by-side comparison of sites (`?compare=sites`), so it can be shared. */
const COMPARE_PARAM = 'compare';

const BLUE = '#005EB8';
const PALETTE = [BLUE, '#007F3B', '#FFB81C', '#D5281B', '#330072', '#00A9CE', '#AE2573', '#425563'];

/** The page's own check of the period, with the server's words (it checks again). */
function periodProblem(p: PeriodChoice): string | null {
  if (!isCalendarDay(p.from)) return 'Choose the first day of the period.';
  if (!isCalendarDay(p.to)) return 'Choose the last day of the period.';
  if (p.from > p.to) return 'The period must not end before it starts.';
  if (p.to > latestReportEnd(p.from)) return 'The period is longer than 3 years; choose a shorter one.';
  return null;
}

/** A print stylesheet: only the reports, on A4, without the console's sidebar, bars and buttons. */
const printStyles = (
  <GlobalStyles
    styles={{
      '@media print': {
        '@page': { size: 'A4', margin: '12mm' },
        '.MuiDrawer-root, header.MuiAppBar-root, footer, .reports-no-print': { display: 'none !important' },
        'main#main-content': { padding: '0 !important', maxWidth: 'none !important' },
        '.reports-section': { breakInside: 'avoid-page', boxShadow: 'none', border: 'none' },
        '.reports-chart svg': { maxWidth: '100%', height: 'auto' },
        '.reports-table-wrap': { overflow: 'visible !important', maxHeight: 'none !important' },
      },
    }}
  />
);

/**
 * A report's body cells drawn as MUI's small body cells are, styled once for the table: a report
 * can have hundreds of rows, and a TableCell each made its own styles on every visit.
 */
const bodyCells = (theme: Theme) => ({
  '& tbody tr': { verticalAlign: 'middle' },
  '& tbody td': {
    ...theme.typography.body2,
    color: theme.palette.text.primary,
    padding: '6px 16px',
    textAlign: 'left' as const,
    borderBottom: `1px solid ${
      theme.palette.mode === 'light'
        ? theme.lighten(theme.alpha(theme.palette.divider, 1), 0.88)
        : theme.darken(theme.alpha(theme.palette.divider, 1), 0.68)
    }`,
  },
  '& tbody td.number': { textAlign: 'right' as const },
});

function ReportTableView({
  table,
  csvTable,
  period,
}: {
  table: ReportTable;
  /** The same table as the CSV writes it (small counts suppressed when asked). */
  csvTable: ReportTable;
  period: PeriodChoice;
}) {
  const id = `table-${table.key}`;
  return (
    <Box sx={{ mt: 2 }}>
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          gap: 1,
          flexWrap: 'wrap',
        }}
      >
        <Typography id={id} component="h3" variant="h3" sx={{ fontSize: '1.05rem', fontWeight: 600 }}>
          {table.title}
        </Typography>
        <Button
          className="reports-no-print"
          size="small"
          variant="outlined"
          aria-label={`Download ${table.title} as CSV`}
          onClick={() =>
            saveBlob(
              new Blob([reportCsv(csvTable)], { type: 'text/csv;charset=utf-8' }),
              `${table.key}-${period.from}-to-${period.to}.csv`,
            )
          }
        >
          CSV
        </Button>
      </Box>
      {table.rows.length === 0 ? (
        <Typography color="text.secondary" sx={{ mt: 1 }}>
          Nothing in this period.
        </Typography>
      ) : (
        <TableContainer
          className="reports-table-wrap"
          sx={{ mt: 1, maxHeight: 480 }}
          tabIndex={0}
          aria-labelledby={id}
        >
          <Table size="small" stickyHeader aria-labelledby={id} sx={bodyCells}>
            <TableHead>
              <TableRow>
                {table.columns.map((column) => (
                  <TableCell key={column} sx={{ fontWeight: 600 }}>
                    {column}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {table.rows.map((row, r) => (
                <tr key={r}>
                  {row.map((cell, c) => (
                    <td key={c} className={typeof cell === 'number' ? 'number' : undefined}>
                      {cell ?? '–'}
                    </td>
                  ))}
                </tr>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Box>
  );
}

/**
 * Whether a section's charts are drawn: false (a placeholder of the chart's size stands in) while
 * the section is more than half a window below or above what is on screen.
 */
const ChartsDrawn = createContext(true);

/**
 * A chart is a picture of the table beneath it: hidden from screen readers, which read the table.
 * Until its section nears the window, an empty box of its height stands in for it.
 */
function Chart({ height, children }: { height: number; children: ReactNode }) {
  const drawn = useContext(ChartsDrawn);
  return (
    <Box className="reports-chart" aria-hidden="true" sx={{ width: '100%' }}>
      {drawn ? (
        children
      ) : (
        <Box className="reports-chart-pending" sx={{ height, borderRadius: 1, bgcolor: 'action.hover' }} />
      )}
    </Box>
  );
}

/** How far beyond the window a section's charts are drawn ahead of being scrolled to. */
const NEAR_MARGIN = '50% 0px 50% 0px';

/**
 * Whether a section is on screen or within half a window of it, once true true for good. Seven
 * reports' charts drawn at once were half a visit's time (`npm run bench`, "click to content,
 * Reports"; docs/performance.md), and a window shows one of them at first. Printing draws them all:
 * paper has no window to scroll.
 */
function useNearTheWindow(ref: RefObject<HTMLElement | null>): boolean {
  const [near, setNear] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (near || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) startTransition(() => setNear(true));
      },
      { rootMargin: NEAR_MARGIN },
    );
    observer.observe(element);
    // Drawn before the page is laid out for paper (window.print(), the browser's own print, or a
    // print preview), so every chart is on it.
    const forPaper = () => flushSync(() => setNear(true));
    const print = window.matchMedia('print');
    const onPrintChange = () => {
      if (print.matches) forPaper();
    };
    window.addEventListener('beforeprint', forPaper);
    print.addEventListener('change', onPrintChange);
    return () => {
      observer.disconnect();
      window.removeEventListener('beforeprint', forPaper);
      print.removeEventListener('change', onPrintChange);
    };
  }, [ref, near]);
  return near;
}

const HEIGHT = 300;
const OUTCOMES_CHART_HEIGHT = 220;

/** The sections' content width when last seen, so a chart returned to is drawn at once at its size. */
let lastContentWidth: number | undefined;

/**
 * The content width of a section, for its chart: given to the chart, which then draws at that size
 * instead of reading its own box after every render (each read a layout of the whole page).
 */
function useContentWidth(ref: RefObject<HTMLElement | null>): number | undefined {
  const [width, setWidth] = useState(lastContentWidth);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => {
      const measured = Math.floor(entry!.contentRect.width);
      if (measured <= 0) return;
      lastContentWidth = measured;
      setWidth(measured);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

function ReportChart({ answer, width }: { answer: ReportsAnswers[ReportName]; width: number | undefined }) {
  switch (answer.report) {
    case 'referrals': {
      const names = [...new Set(answer.rows.flatMap((r) => r.by_organisation.map((o) => o.name)))];
      if (names.length === 0) return null;
      return (
        <Chart height={HEIGHT}>
          <BarChart
            width={width}
            height={HEIGHT}
            skipAnimation
            xAxis={[{ scaleType: 'band', data: answer.rows.map((r) => r.period) }]}
            yAxis={[{ min: 0, tickMinStep: 1 }]}
            series={names.map((name, i) => ({
              label: name,
              stack: 'organisations',
              color: PALETTE[i % PALETTE.length],
              data: answer.rows.map((r) => r.by_organisation.find((o) => o.name === name)?.count ?? 0),
            }))}
          />
        </Chart>
      );
    }
    case 'flow':
      return (
        <Chart height={HEIGHT}>
          <BarChart
            width={width}
            height={HEIGHT}
            skipAnimation
            xAxis={[{ scaleType: 'band', data: answer.rows.map((r) => r.period) }]}
            yAxis={[{ min: 0, tickMinStep: 1 }]}
            series={[
              { label: 'Referred', data: answer.rows.map((r) => r.referred), color: '#425563' },
              { label: 'Started', data: answer.rows.map((r) => r.started), color: BLUE },
              { label: 'Completed', data: answer.rows.map((r) => r.completed), color: '#007F3B' },
              { label: 'Withdrawn', data: answer.rows.map((r) => r.withdrawn), color: '#D5281B' },
            ]}
          />
        </Chart>
      );
    case 'adherence':
      return (
        <Chart height={HEIGHT}>
          <BarChart
            width={width}
            height={HEIGHT}
            skipAnimation
            xAxis={[{ scaleType: 'band', data: answer.rows.map((r) => r.period) }]}
            yAxis={[{ min: 0, tickMinStep: 1 }]}
            series={[
              { label: 'On track', stack: 'a', data: answer.rows.map((r) => r.on_track), color: '#007F3B' },
              {
                label: 'Slightly behind',
                stack: 'a',
                data: answer.rows.map((r) => r.slightly_behind),
                color: '#FFB81C',
              },
              { label: 'Behind', stack: 'a', data: answer.rows.map((r) => r.behind), color: '#D5281B' },
            ]}
          />
        </Chart>
      );
    case 'programme-weeks': {
      const sets = [...new Map(answer.rows.map((r) => [r.video_set_id, r.set_name])).entries()];
      const weeks = Math.max(0, ...answer.rows.map((r) => r.week));
      if (sets.length === 0 || weeks === 0) return null;
      return (
        <Chart height={HEIGHT}>
          <LineChart
            width={width}
            height={HEIGHT}
            skipAnimation
            xAxis={[{ scaleType: 'point', data: Array.from({ length: weeks }, (_, i) => `Week ${i + 1}`) }]}
            yAxis={[{ min: 0, max: 100, label: '% of those who reached the week' }]}
            series={sets.map(([id, name], i) => ({
              label: `${name}: watched every video`,
              color: PALETTE[i % PALETTE.length],
              connectNulls: false,
              data: Array.from({ length: weeks }, (_, w) => {
                const row = answer.rows.find((r) => r.video_set_id === id && r.week === w + 1);
                return row && row.reached > 0
                  ? Math.round((1000 * row.watched_all) / row.reached) / 10
                  : null;
              }),
            }))}
          />
        </Chart>
      );
    }
    case 'videos': {
      if (answer.rows.length === 0) return null;
      const height = Math.max(HEIGHT, 22 * answer.rows.length);
      return (
        <Chart height={height}>
          <BarChart
            width={width}
            height={height}
            skipAnimation
            layout="horizontal"
            margin={{ left: 16 }}
            yAxis={[
              {
                scaleType: 'band',
                width: 160,
                data: answer.rows.map((r) => `${r.set_name} W${r.week}D${r.day}`),
              },
            ]}
            series={[{ label: 'Views', data: answer.rows.map((r) => r.views), color: BLUE }]}
          />
        </Chart>
      );
    }
    case 'views':
      return (
        <Chart height={HEIGHT}>
          <LineChart
            width={width}
            height={HEIGHT}
            skipAnimation
            xAxis={[{ scaleType: 'point', data: answer.rows.map((r) => r.period) }]}
            yAxis={[{ min: 0, tickMinStep: 1 }]}
            series={[{ label: 'Views', data: answer.rows.map((r) => r.views), color: BLUE, curve: 'linear' }]}
          />
        </Chart>
      );
  }
}

function ReportNote({ answer }: { answer: ReportsAnswers[ReportName] }) {
  if (answer.report === 'adherence') {
    return (
      <Typography color="text.secondary">
        {answer.data_from
          ? `Recorded by the daily check since ${formatLongDate(answer.data_from)}; each row is the last recorded day of its ${answer.period.by} in the period.`
          : 'The daily check has not recorded any day yet.'}
      </Typography>
    );
  }
  if (answer.report === 'flow') {
    const { median, p90 } = answer.days_to_start;
    return (
      <Typography color="text.secondary">
        Cohorts by registration; outcomes as they stand today. Days from registration to start over the
        period: median {median ?? '–'}, 90th percentile {p90 === null ? '–' : Math.round(p90 * 10) / 10}.
      </Typography>
    );
  }
  if (answer.report === 'programme-weeks') {
    return (
      <Typography color="text.secondary">
        Participants who started in the period, per week of their programme that had begun by its end.
      </Typography>
    );
  }
  if (answer.report === 'videos') {
    return (
      <Typography color="text.secondary">
        “Least watched” marks each set’s videos with the fewest views, when its videos were not watched alike.
      </Typography>
    );
  }
  return null;
}

const sectionSx = {
  p: 2,
  mb: 3,
  // A section off screen is neither laid out nor painted until it nears the window (the videos
  // report alone has a bar and a table row per video); printing draws every one.
  contentVisibility: 'auto',
  containIntrinsicSize: 'auto 640px',
} as const;

function ReportSection({
  name,
  period,
  siteId,
  suppress,
}: {
  name: ReportName;
  period: PeriodChoice;
  siteId: number | undefined;
  suppress: boolean;
}) {
  const query = useQuery(reportQuery(name, period, siteId));
  const title = REPORT_TITLES[name];
  const section = useRef<HTMLElement>(null);
  const width = useContentWidth(section);
  const near = useNearTheWindow(section);
  return (
    <Paper
      ref={section}
      variant="outlined"
      component="section"
      className="reports-section"
      aria-labelledby={`report-${name}`}
      sx={sectionSx}
    >
      <ChartsDrawn value={near}>
        <Typography id={`report-${name}`} component="h2" variant="h2" sx={{ mb: 1 }}>
          {title}
        </Typography>
        <QueryState query={query} loadingLabel={`Loading ${title}`}>
          {(answer) => (
            <>
              <ReportNote answer={answer} />
              <ReportChart answer={answer} width={width} />
              {reportTables(answer, false).map((table, i) => (
                <ReportTableView
                  key={table.key}
                  table={table}
                  // The same answer gives the same tables in the same order, suppressed or not.
                  csvTable={reportTables(answer, suppress)[i]!}
                  period={period}
                />
              ))}
            </>
          )}
        </QueryState>
      </ChartsDrawn>
    </Paper>
  );
}

/**
 * The outcomes report of one measure: completeness first (the completers, and how many have a
 * baseline, an end result and both), then the pairs' figures; a measure is chosen from those in use.
 */
function OutcomesSection({
  period,
  siteId,
  suppress,
}: {
  period: PeriodChoice;
  siteId: number | undefined;
  suppress: boolean;
}) {
  const measures = useQuery(reportMeasuresQuery);
  const inUse = measuresInUse(measures.data ?? []);
  const [chosen, setChosen] = useState<string | null>(null);
  const measure = chosen ?? inUse[0]?.code ?? null;
  const report = useQuery({
    ...outcomesReportQuery(measure ?? '', period, siteId),
    enabled: measure !== null,
  });
  const section = useRef<HTMLElement>(null);
  const width = useContentWidth(section);
  const near = useNearTheWindow(section);
  return (
    <Paper
      ref={section}
      variant="outlined"
      component="section"
      className="reports-section"
      aria-labelledby="report-outcomes"
      sx={sectionSx}
    >
      <ChartsDrawn value={near}>
        <Typography id="report-outcomes" component="h2" variant="h2" sx={{ mb: 1 }}>
          {OUTCOMES_REPORT_TITLE}
        </Typography>
        <QueryState query={measures} loadingLabel="Loading the measures">
          {() =>
            measure === null ? (
              <Typography color="text.secondary">No outcome measure is in use.</Typography>
            ) : (
              <>
                <TextField
                  select
                  id="report-outcomes-measure"
                  label="Measure"
                  size="small"
                  value={measure}
                  onChange={(e) => setChosen(e.target.value)}
                  className="reports-no-print"
                  sx={{ minWidth: 260, mb: 1 }}
                >
                  {inUse.map((m) => (
                    <MenuItem key={m.code} value={m.code}>
                      {m.name}
                    </MenuItem>
                  ))}
                </TextField>
                <QueryState query={report} loadingLabel={`Loading ${OUTCOMES_REPORT_TITLE}`}>
                  {(answer) => (
                    <>
                      <Typography color="text.secondary">
                        Participants discharged as completed in the period: {answer.completed}. With a
                        baseline (taken by the end of the first week) and an end result: {answer.with_both}
                        {answer.completed > 0
                          ? ` (${Math.round((100 * answer.with_both) / answer.completed)}%)`
                          : ''}
                        ; the figures below are of them alone.
                        {answer.baseline_late > 0
                          ? ` ${answer.baseline_late} had a baseline only from after the first week, not used.`
                          : ''}
                        {answer.mcid === null ? ' This measure has no MCID.' : ''}
                      </Typography>
                      {answer.with_both > 0 && answer.improved !== null && (
                        <Chart height={OUTCOMES_CHART_HEIGHT}>
                          <BarChart
                            width={width}
                            height={OUTCOMES_CHART_HEIGHT}
                            skipAnimation
                            layout="horizontal"
                            yAxis={[
                              {
                                scaleType: 'band',
                                width: 190,
                                data: ['Improved by the MCID', 'Within the MCID', 'Worse by the MCID'],
                              },
                            ]}
                            series={[
                              {
                                label: 'Participants with both results',
                                data: [answer.improved, answer.unchanged ?? 0, answer.worse ?? 0],
                                color: BLUE,
                              },
                            ]}
                          />
                        </Chart>
                      )}
                      <ReportTableView
                        table={outcomesTable([answer], false)}
                        csvTable={outcomesTable([answer], suppress)}
                        period={period}
                      />
                    </>
                  )}
                </QueryState>
              </>
            )
          }
        </QueryState>
      </ChartsDrawn>
    </Paper>
  );
}

export function ReportsPage() {
  const [period, setPeriod] = useState<PeriodChoice>(defaultPeriod);
  const [draft, setDraft] = useState<PeriodChoice>(period);
  const [suppress, setSuppress] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<string | null>(null);
  const problem = periodProblem(draft);
  const site = useSiteFilter();
  const [searchParams, setSearchParams] = useSearchParams();
  const comparing = site.sites.length > 1 && searchParams.get(COMPARE_PARAM) === 'sites';
  const setComparing = (on: boolean) =>
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (on) next.set(COMPARE_PARAM, 'sites');
        else next.delete(COMPARE_PARAM);
        return next;
      },
      { replace: true },
    );

  const apply = (event: FormEvent) => {
    event.preventDefault();
    if (!problem) setPeriod(draft);
  };

  const exportWorkbook = async () => {
    setExporting(true);
    setExportError(null);
    try {
      const blob = await downloadWorkbook(period, suppress, site.siteId);
      saveBlob(blob, `pathway-reports-${period.from}-to-${period.to}.xlsx`);
    } catch (error) {
      setExportError(isApiError(error) ? error.message : 'The workbook could not be made. Please try again.');
    } finally {
      setExporting(false);
    }
  };

  return (
    <>
      {printStyles}
      <PageHeader
        title="Reports"
        actions={
          <Box className="reports-no-print" sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
            <Button variant="contained" onClick={() => void exportWorkbook()} disabled={exporting}>
              {exporting ? 'Making the workbook…' : 'Export XLSX'}
            </Button>
            <Button variant="outlined" onClick={() => window.print()}>
              Print
            </Button>
          </Box>
        }
      >
        Aggregate figures for {formatLongDate(period.from)} to {formatLongDate(period.to)}, by{' '}
        {period.by === 'week' ? 'ISO week' : 'month'}
        {site.siteLabel ? `, for ${site.siteLabel}` : ''}. No participant is named.
      </PageHeader>
      <Paper
        variant="outlined"
        component="form"
        className="reports-no-print"
        aria-label="Period"
        onSubmit={apply}
        noValidate
        sx={{ p: 2, mb: 3, display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'flex-start' }}
      >
        <TextField
          label="From"
          type="date"
          value={draft.from}
          onChange={(e) => setDraft({ ...draft, from: e.target.value })}
          slotProps={{ inputLabel: { shrink: true } }}
          size="small"
        />
        <TextField
          label="To"
          type="date"
          value={draft.to}
          onChange={(e) => setDraft({ ...draft, to: e.target.value })}
          slotProps={{ inputLabel: { shrink: true } }}
          size="small"
        />
        <TextField
          select
          label="Group by"
          value={draft.by}
          onChange={(e) => setDraft({ ...draft, by: e.target.value === 'week' ? 'week' : 'month' })}
          size="small"
          sx={{ minWidth: 140 }}
        >
          <MenuItem value="month">Month</MenuItem>
          <MenuItem value="week">ISO week</MenuItem>
        </TextField>
        <Button type="submit" variant="outlined" disabled={problem !== null}>
          Show
        </Button>
        <FormControlLabel
          control={<Checkbox checked={suppress} onChange={(e) => setSuppress(e.target.checked)} />}
          label="Suppress counts under 5 in exports (for sharing outside the team)"
        />
        {site.sites.length > 1 && (
          <Box
            sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'flex-start', flexBasis: '100%' }}
          >
            <SiteSelect filter={site} />
            <FormControlLabel
              control={<Switch checked={comparing} onChange={(e) => setComparing(e.target.checked)} />}
              label="Compare sites side by side"
            />
          </Box>
        )}
        {problem && (
          <Alert severity="warning" sx={{ flexBasis: '100%' }}>
            {problem}
          </Alert>
        )}
      </Paper>
      {exportError && (
        <Alert severity="error" sx={{ mb: 2 }} className="reports-no-print">
          {exportError}
        </Alert>
      )}
      <SiteFilterNotice filter={site} unseen="the figures of your other sites are not counted" />
      {comparing && <SiteComparison period={period} sites={site.sites} />}
      {REPORT_NAMES.map((name) => (
        <ReportSection key={name} name={name} period={period} siteId={site.siteId} suppress={suppress} />
      ))}
      <OutcomesSection period={period} siteId={site.siteId} suppress={suppress} />
    </>
  );
}
