import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutline';
import CloudUploadOutlinedIcon from '@mui/icons-material/CloudUploadOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef } from 'react';
import { uploadSettingsQuery } from './api';
import { useVideoUpload } from './useVideoUpload';

export function formatSize(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

export interface UploadedFile {
  location: string;
  fileSize: number;
}

/**
 * Chooses a video file and uploads it (resumable, with a progress bar). Calls `onChange` with
 * the finished upload once the server has checked it, and with null while there is none.
 */
export function VideoUploader({
  onChange,
  label = 'Video file',
}: {
  onChange: (file: UploadedFile | null) => void;
  label?: string;
}) {
  const settings = useQuery(uploadSettingsQuery);
  const { state, start, retry, cancel, ready } = useVideoUpload(settings.data);
  const input = useRef<HTMLInputElement>(null);
  const labelId = useId();
  const statusId = useId();

  useEffect(() => {
    onChange(state.phase === 'done' ? { location: state.location, fileSize: state.fileSize } : null);
  }, [state, onChange]);

  const busy = state.phase === 'uploading' || state.phase === 'checking';
  return (
    <Box
      role="group"
      aria-labelledby={labelId}
      sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 2 }}
    >
      <Typography id={labelId} variant="subtitle2" component="p" sx={{ mb: 1 }}>
        {label}
      </Typography>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Button
          variant="outlined"
          startIcon={<CloudUploadOutlinedIcon />}
          disabled={!ready || busy}
          aria-describedby={statusId}
          onClick={() => input.current?.click()}
        >
          {state.phase === 'idle' ? 'Choose video file' : 'Choose another file'}
        </Button>
        {/* Opened by the button: a file input inside a button would nest two controls. */}
        <input
          ref={input}
          type="file"
          accept="video/*"
          hidden
          tabIndex={-1}
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) start(file);
            event.target.value = '';
          }}
        />
        {busy && (
          <Button onClick={cancel} color="inherit">
            Cancel upload
          </Button>
        )}
      </Stack>
      {settings.data && state.phase === 'idle' && (
        <Typography id={statusId} variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          MP4 or WebM, up to {formatSize(settings.data.max_upload_bytes)}. A dropped connection resumes by
          itself.
        </Typography>
      )}
      {state.phase === 'uploading' && (
        <Box sx={{ mt: 2 }}>
          <LinearProgress
            variant="determinate"
            value={state.percent}
            aria-label={`Uploading ${state.name}`}
          />
          <Typography id={statusId} variant="body2" sx={{ mt: 0.5 }} role="status">
            {state.offline
              ? `Connection lost at ${state.percent}%: the upload resumes when it is back.`
              : `Uploading ${state.name}: ${state.percent}% of ${formatSize(state.size)}`}
          </Typography>
        </Box>
      )}
      {state.phase === 'checking' && (
        <Box sx={{ mt: 2 }}>
          <LinearProgress aria-label={`Checking ${state.name}`} />
          <Typography id={statusId} variant="body2" sx={{ mt: 0.5 }} role="status">
            Uploaded {state.name}; checking that it is a playable video…
          </Typography>
        </Box>
      )}
      {state.phase === 'done' && (
        <Stack
          id={statusId}
          direction="row"
          spacing={1}
          role="status"
          sx={{ mt: 2, alignItems: 'center', color: 'success.main' }}
        >
          <CheckCircleOutlineIcon fontSize="small" />
          <Typography variant="body2" sx={{ color: 'text.primary' }}>
            {state.name} uploaded ({formatSize(state.size)})
          </Typography>
        </Stack>
      )}
      {state.phase === 'error' && (
        <Alert
          id={statusId}
          severity="error"
          sx={{ mt: 2 }}
          action={
            state.canRetry ? (
              <Button color="inherit" size="small" onClick={retry}>
                Try again
              </Button>
            ) : undefined
          }
        >
          {state.name ? `${state.name}: ` : ''}
          {state.message}
        </Alert>
      )}
      {settings.isError && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {settings.error.message}
        </Alert>
      )}
    </Box>
  );
}
