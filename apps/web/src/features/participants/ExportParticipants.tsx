import FileDownloadOutlinedIcon from '@mui/icons-material/FileDownloadOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { saveBlob } from '../../lib/download';
import { exportParticipants, type ParticipantExportParams } from './api';

const whole = new Intl.NumberFormat('en-GB');

type ExportState =
  | { kind: 'idle' }
  | { kind: 'running'; received: number; total: number | null }
  | { kind: 'done'; rows: number }
  | { kind: 'failed'; message: string };

/**
 * Exports the whole list as filtered and sorted (not just the page shown), streamed by the server;
 * a long list shows how far it has come and can be stopped.
 */
export function useParticipantExport(params: ParticipantExportParams) {
  const [state, setState] = useState<ExportState>({ kind: 'idle' });
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  async function start() {
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setState({ kind: 'running', received: 0, total: null });
    try {
      let rows = 0;
      const { blob, fileName } = await exportParticipants(
        params,
        (received, total) => {
          rows = received;
          setState({ kind: 'running', received, total });
        },
        controller.signal,
      );
      saveBlob(blob, fileName);
      setState({ kind: 'done', rows });
    } catch (error) {
      if (controller.signal.aborted) setState({ kind: 'idle' });
      else setState({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
    }
  }

  const button = (
    <Button
      variant="outlined"
      startIcon={<FileDownloadOutlinedIcon />}
      onClick={() => void start()}
      disabled={state.kind === 'running'}
    >
      Export CSV
    </Button>
  );

  const status =
    state.kind === 'running' ? (
      <Box sx={{ mb: 2 }} role="status" aria-live="polite">
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
          <Typography variant="body2" id="participant-export-label">
            {state.total === null
              ? 'Exporting participants…'
              : `Exporting participants: ${whole.format(state.received)} of ${whole.format(state.total)}`}
          </Typography>
          <Button size="small" onClick={() => abort.current?.abort()}>
            Stop export
          </Button>
        </Box>
        <LinearProgress
          aria-labelledby="participant-export-label"
          variant={state.total ? 'determinate' : 'indeterminate'}
          value={state.total ? Math.min(100, (100 * state.received) / state.total) : undefined}
          sx={{ mt: 1 }}
        />
      </Box>
    ) : state.kind === 'done' ? (
      <Alert severity="success" role="status" sx={{ mb: 2 }} onClose={() => setState({ kind: 'idle' })}>
        Exported {whole.format(state.rows)} {state.rows === 1 ? 'participant' : 'participants'}.
      </Alert>
    ) : state.kind === 'failed' ? (
      <Alert severity="error" role="alert" sx={{ mb: 2 }} onClose={() => setState({ kind: 'idle' })}>
        {state.message}
      </Alert>
    ) : null;

  return { button, status };
}
