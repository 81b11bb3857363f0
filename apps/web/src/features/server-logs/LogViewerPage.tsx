import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useParams } from 'react-router';
import { PageLoading } from '../../components/PageLoading';
import { logContentQuery } from './api';

/** One log file, in the popup window that View Log opens: wrapped lines, one per entry. */
export function LogViewerPage() {
  const fileName = useParams().fileName ?? '';
  const content = useQuery(logContentQuery(fileName));
  const lines = content.data ? content.data.split('\n').filter((line) => line.length > 0) : [];

  useEffect(() => {
    document.title = `${fileName} - Pathway`;
  }, [fileName]);

  return (
    <Box component="main" sx={{ bgcolor: 'background.paper', minHeight: '100vh' }}>
      <Box
        sx={{
          position: 'sticky',
          top: 0,
          bgcolor: 'primary.main',
          color: 'primary.contrastText',
          px: 2,
          py: 1,
          display: 'flex',
          alignItems: 'center',
          gap: 2,
          flexWrap: 'wrap',
        }}
      >
        <Typography variant="h1" sx={{ fontSize: '1.125rem', flexGrow: 1, wordBreak: 'break-all' }}>
          {fileName}
        </Typography>
        {content.isSuccess && <Typography variant="body2">{lines.length} lines</Typography>}
        <Button color="inherit" variant="outlined" size="small" onClick={() => void content.refetch()}>
          Refresh
        </Button>
        <Button color="inherit" variant="outlined" size="small" onClick={() => window.close()}>
          Close
        </Button>
      </Box>
      {content.isPending ? (
        <PageLoading label="Loading the log" />
      ) : content.isError ? (
        <Alert severity="error" sx={{ m: 2 }}>
          {content.error.message}
        </Alert>
      ) : lines.length === 0 ? (
        <Typography sx={{ p: 2 }}>This log file is empty.</Typography>
      ) : (
        <Box
          component="pre"
          sx={{
            m: 0,
            p: 2,
            fontFamily: 'ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace',
            fontSize: '0.8125rem',
            lineHeight: 1.5,
            whiteSpace: 'pre-wrap',
            overflowWrap: 'anywhere',
            color: 'text.primary',
          }}
        >
          {lines.map((line, index) => (
            <Box
              component="span"
              key={index}
              sx={{ display: 'block', py: 0.5, borderBottom: 1, borderColor: 'divider' }}
            >
              {line}
            </Box>
          ))}
        </Box>
      )}
    </Box>
  );
}
