import ReplayIcon from '@mui/icons-material/Replay';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import { messages } from '@pathway/contract';
import { Component, type ErrorInfo, type ReactNode } from 'react';

/** Chrome, Firefox and Safari word a failed dynamic import differently. */
export function isChunkLoadError(error: unknown): boolean {
  const text = error instanceof Error ? `${error.name} ${error.message}` : String(error);
  return /dynamically imported module|Importing a module script failed|ChunkLoadError|Unable to preload CSS/i.test(
    text,
  );
}

export function PageFailure({ error }: { error: unknown }) {
  const chunk = isChunkLoadError(error);
  return (
    <Alert
      severity="error"
      role="alert"
      action={
        <Button
          color="inherit"
          variant="outlined"
          startIcon={<ReplayIcon />}
          onClick={() => window.location.reload()}
        >
          Reload
        </Button>
      }
    >
      <AlertTitle>{chunk ? 'This page could not be loaded' : 'Something went wrong on this page'}</AlertTitle>
      {chunk
        ? messages.generic.pageLoadFailed
        : 'Reload the page to try again. If it keeps happening, tell the service desk.'}
    </Alert>
  );
}

interface State {
  failed: boolean;
  error: unknown;
}

/**
 * Catches a page that fails to load (a lazy chunk missing after a deployment, a dropped
 * connection) or to render, and offers a reload instead of a blank console. Give it a `key` that
 * changes with the page so that leaving the page clears the failure.
 */
export class PageErrorBoundary extends Component<{ children: ReactNode }, State> {
  state: State = { failed: false, error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { failed: true, error };
  }

  componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('Page failed', error, info.componentStack);
  }

  render() {
    return this.state.failed ? <PageFailure error={this.state.error} /> : this.props.children;
  }
}
