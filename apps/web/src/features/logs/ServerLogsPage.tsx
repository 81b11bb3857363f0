import DownloadIcon from '@mui/icons-material/Download';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TableCell from '@mui/material/TableCell';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { ACTIONS_COLUMN, PagedTable } from '../../components/PagedTable';
import { WarningAlert } from '../../components/WarningAlert';
import { describeRetention } from '@pathway/contract';
import { isApiError } from '../../lib/api';
import { retentionQuery } from '../../lib/retention';
import { downloadLog, logListQuery } from './api';
import { logViewerPath } from './paths';

/** Spec §9: the log is shown in a popup window of 600x500. */
const POPUP_FEATURES = 'popup,width=600,height=500';

export function ServerLogsPage() {
  const logs = useQuery(logListQuery);
  const retention = useQuery(retentionQuery);
  const [problem, setProblem] = useState<string | null>(null);
  const [downloading, setDownloading] = useState<string | null>(null);

  const view = (fileName: string) => {
    setProblem(null);
    const popup = window.open(logViewerPath(fileName), `pathway-log-${fileName}`, POPUP_FEATURES);
    if (!popup) setProblem('The browser blocked the popup window. Allow popups for this site to view logs.');
  };

  const download = async (fileName: string) => {
    setProblem(null);
    setDownloading(fileName);
    try {
      await downloadLog(fileName);
    } catch (error) {
      // A 401 is handled for the whole console (back to sign in); anything else is told here.
      if (!isApiError(error, 401)) setProblem((error as Error).message);
    } finally {
      setDownloading(null);
    }
  };

  return (
    <>
      <PageHeader title="Server Logs">
        One file per day, newest first.
        {retention.data &&
          ` Log files are kept for ${describeRetention(retention.data.log_retention_days)}, then removed.`}
      </PageHeader>
      {problem && <WarningAlert message={problem} />}
      <PagedTable
        query={logs}
        loadingLabel="Loading the log files"
        label="Server log files"
        columns={['Log Created Date', ACTIONS_COLUMN]}
        rowKey={(fileName) => fileName}
        empty="No log files yet."
        renderRow={(fileName) => (
          <>
            <TableCell sx={{ fontFamily: 'monospace', fontSize: '0.9375rem' }}>{fileName}</TableCell>
            <TableCell align="right">
              <Box sx={{ display: 'inline-flex', flexWrap: 'wrap', justifyContent: 'flex-end', gap: 1 }}>
                <Button
                  variant="outlined"
                  size="small"
                  startIcon={<OpenInNewIcon />}
                  aria-label={`View Log ${fileName} (opens in a popup window)`}
                  onClick={() => view(fileName)}
                >
                  View Log
                </Button>
                <Button
                  variant="contained"
                  size="small"
                  startIcon={<DownloadIcon />}
                  aria-label={`Download Log ${fileName}`}
                  loading={downloading === fileName}
                  onClick={() => void download(fileName)}
                >
                  Download Log
                </Button>
              </Box>
            </TableCell>
          </>
        )}
      />
    </>
  );
}
