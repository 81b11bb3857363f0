import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { QueryState } from '../../components/QueryState';
import { logContentQuery } from './api';
import { parseLog, type LogEntry } from './logLines';

/** Plain elements styled from the list (see `entryStyles`): thousands of entries render fast. */
function Entry({ entry, raw }: { entry: LogEntry; raw: boolean }) {
  if (raw || entry.message === undefined) return <>{entry.raw}</>;
  return (
    <>
      {entry.time && <span className="log-time">{entry.time} </span>}
      {entry.level && <span className={`log-level log-${entry.level}`}>{entry.level.toUpperCase()} </span>}
      <span className="log-message">{entry.message}</span>
      {entry.details && <span className="log-details">{entry.details}</span>}
    </>
  );
}

const entryStyles = {
  '& > li': { py: 0.75, borderBottom: 1, borderColor: 'divider' },
  '& .log-time, & .log-details, & .log-trace, & .log-debug': { color: 'text.secondary' },
  '& .log-details': { display: 'block' },
  '& .log-level': { fontWeight: 700 },
  '& .log-info': { color: 'primary.main' },
  // MUI's warning colours are too light for small text on white (WCAG 1.4.3).
  '& .log-warn': { color: '#8A4B00' },
  '& .log-error, & .log-fatal': { color: 'error.main' },
  '& .log-message': { fontWeight: 600 },
} as const;

/** A day's log can hold many thousands of entries: the latest are shown, the rest on request. */
const SHOWN_AT_FIRST = 500;

/**
 * One log file, in the popup window that View Log opens: an entry per line with its time, level
 * and message first, or the raw lines as the file holds them.
 */
export function LogViewerPage() {
  const fileName = useParams().fileName ?? '';
  const content = useQuery(logContentQuery(fileName));
  const entries = useMemo(() => (content.data ? parseLog(content.data) : []), [content.data]);
  const [raw, setRaw] = useState(false);
  const [showAll, setShowAll] = useState(false);
  const hidden = showAll ? 0 : Math.max(0, entries.length - SHOWN_AT_FIRST);
  const shown = hidden > 0 ? entries.slice(hidden) : entries;

  useEffect(() => {
    document.title = `${fileName} - Pathway`;
  }, [fileName]);

  return (
    <Box sx={{ bgcolor: 'background.paper', minHeight: '100vh' }}>
      <Box
        component="header"
        sx={{
          position: 'sticky',
          top: 0,
          bgcolor: 'primary.main',
          color: 'primary.contrastText',
          px: 2,
          py: 1,
          display: 'flex',
          alignItems: 'center',
          columnGap: 2,
          rowGap: 0.5,
          flexWrap: 'wrap',
        }}
      >
        <Typography variant="h1" sx={{ fontSize: '1.125rem', flexGrow: 1, overflowWrap: 'anywhere' }}>
          {fileName}
        </Typography>
        {content.isSuccess && (
          <Typography variant="body2">{entries.length.toLocaleString('en-GB')} entries</Typography>
        )}
        <FormControlLabel
          control={
            <Switch size="small" color="default" checked={raw} onChange={(e) => setRaw(e.target.checked)} />
          }
          label="Raw lines"
          slotProps={{ typography: { variant: 'body2' } }}
        />
        <Button color="inherit" variant="outlined" size="small" onClick={() => void content.refetch()}>
          Refresh
        </Button>
        <Button color="inherit" variant="outlined" size="small" onClick={() => window.close()}>
          Close
        </Button>
      </Box>
      <Box component="main">
        <QueryState query={content} loadingLabel="Loading the log" errorSx={{ m: 2 }}>
          {() => (
            <>
              {hidden > 0 && (
                <Alert
                  severity="info"
                  role="status"
                  sx={{ m: 2, mb: 0 }}
                  action={
                    <Button color="inherit" size="small" onClick={() => setShowAll(true)}>
                      Show all
                    </Button>
                  }
                >
                  Showing the last {shown.length.toLocaleString('en-GB')} of{' '}
                  {entries.length.toLocaleString('en-GB')} entries.
                </Alert>
              )}
              <Box
                component="ol"
                sx={{
                  listStyle: 'none',
                  m: 0,
                  px: 2,
                  py: 1,
                  fontFamily: 'ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace',
                  fontSize: '0.8125rem',
                  lineHeight: 1.5,
                  whiteSpace: 'pre-wrap',
                  overflowWrap: 'anywhere',
                  ...entryStyles,
                }}
              >
                {shown.map((entry, index) => (
                  <li key={hidden + index}>
                    <Entry entry={entry} raw={raw} />
                  </li>
                ))}
              </Box>
            </>
          )}
        </QueryState>
      </Box>
    </Box>
  );
}
