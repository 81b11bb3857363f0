import Alert from '@mui/material/Alert';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { alpha, type Theme } from '@mui/material/styles';
import { REPORT_NAMES, REPORT_TITLES, type ReportName, type ReportsAnswers } from '@pathway/contract';
import { useQueries } from '@tanstack/react-query';
import type { SessionInfo } from '@pathway/contract';
import { reportQuery, type PeriodChoice } from './api';
import { HEADLINE_FIGURES } from './siteComparison';

type Answers = { [N in ReportName]: ReportsAnswers[N] };

const whole = new Intl.NumberFormat('en-GB');

/**
 * Each report's headline figures for every site the admin sees, side by side: one request per
 * report and site (the reports API's `site_id`), so each column is what that site's own staff see.
 * The figure names stay at the left edge while a narrow screen scrolls the sites sideways.
 */
export function SiteComparison({ period, sites }: { period: PeriodChoice; sites: SessionInfo['sites'] }) {
  const results = useQueries({
    queries: sites.flatMap((site) => REPORT_NAMES.map((name) => reportQuery(name, period, site.site_id))),
  });
  const failed = results.find((r) => r.isError);
  const columns = sites.map((site, s) => {
    const mine = results.slice(s * REPORT_NAMES.length, (s + 1) * REPORT_NAMES.length);
    if (mine.some((r) => !r.data)) return { site, answers: null };
    return {
      site,
      answers: Object.fromEntries(REPORT_NAMES.map((name, i) => [name, mine[i]!.data])) as Answers,
    };
  });
  const loading = columns.some((c) => c.answers === null) && !failed;
  return (
    <Paper
      variant="outlined"
      component="section"
      className="reports-section"
      aria-labelledby="report-sites"
      sx={{ p: { xs: 2, sm: 3 }, mb: 3 }}
    >
      <Typography id="report-sites" component="h2" variant="h2" sx={{ mb: 1 }}>
        Sites side by side
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 1 }}>
        The headline figure of each report for each of your sites over the period; each report below has the
        details.
      </Typography>
      {failed?.error && (
        <Alert severity="error" sx={{ mb: 1 }}>
          {failed.error.message}
        </Alert>
      )}
      <TableContainer
        className="reports-table-wrap"
        tabIndex={0}
        aria-labelledby="report-sites"
        aria-busy={loading}
        sx={{ maxWidth: '100%' }}
      >
        <Table size="small" aria-labelledby="report-sites">
          <TableHead>
            <TableRow>
              <TableCell component="th" scope="col" sx={stickyHead}>
                Figure
              </TableCell>
              {columns.map(({ site }) => (
                <TableCell
                  key={site.site_id}
                  component="th"
                  scope="col"
                  align="right"
                  sx={{ fontWeight: 600 }}
                >
                  {site.name}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {HEADLINE_FIGURES.map((figure) => (
              <TableRow key={figure.key}>
                <TableCell component="th" scope="row" sx={stickyFirst}>
                  {figure.label}
                  <Typography
                    component="span"
                    variant="body2"
                    color="text.secondary"
                    sx={{ display: 'block' }}
                  >
                    {REPORT_TITLES[figure.report]}
                  </Typography>
                </TableCell>
                {columns.map(({ site, answers }) => {
                  const value = answers ? figure.of(answers) : undefined;
                  return (
                    <TableCell key={site.site_id} align="right" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                      {value === undefined
                        ? '…'
                        : value === null
                          ? '–'
                          : `${whole.format(value)}${figure.percent ? '%' : ''}`}
                    </TableCell>
                  );
                })}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </Paper>
  );
}

/** The figure names stay in view while the sites scroll sideways on a narrow screen: opaque, so nothing shows through. */
const stickyFirst = {
  position: 'sticky',
  left: 0,
  zIndex: 1,
  bgcolor: 'background.paper',
  fontWeight: 600,
  minWidth: 180,
} as const;

/** The head's corner as the other head cells look (their tint), over the paper. */
const stickyHead = (theme: Theme) => ({
  ...stickyFirst,
  backgroundImage: `linear-gradient(${alpha(theme.palette.primary.main, 0.06)}, ${alpha(theme.palette.primary.main, 0.06)})`,
});
