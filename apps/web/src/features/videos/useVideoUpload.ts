import Uppy from '@uppy/core';
import Tus, { type TusBody } from '@uppy/tus';
import { limits, messages, type FinishedUpload, type UploadSettings } from '@pathway/contract';
import { useCallback, useEffect, useRef, useState } from 'react';

export type UploadState =
  | { phase: 'idle' }
  | { phase: 'uploading'; name: string; size: number; percent: number; offline: boolean }
  /** Every byte sent; the server is checking that the file is a playable video. */
  | { phase: 'checking'; name: string; size: number }
  | { phase: 'done'; name: string; size: number; location: string; fileSize: number }
  | { phase: 'error'; name?: string; message: string; canRetry: boolean };

type Meta = Record<string, never>;

/** Retries after a dropped connection or a server restart: quickly first, then for a few minutes. */
const RETRY_DELAYS = [0, 1000, 3000, 5000, 10_000, 20_000, 30_000, 60_000, 60_000, 60_000];

const VIDEO_TYPES = ['video/*', '.mp4', '.m4v', '.mov', '.webm', '.mkv', '.avi', '.ts'];

function messageOf(xhr: XMLHttpRequest | undefined): string | undefined {
  try {
    const body = JSON.parse(xhr?.responseText ?? '') as { message?: unknown };
    return typeof body.message === 'string' ? body.message : undefined;
  } catch {
    return undefined;
  }
}

/** The finished upload's answer; read again from the upload URL if the last response was lost. */
async function finishedUpload(
  xhr: XMLHttpRequest | undefined,
  uploadUrl: string | undefined,
): Promise<FinishedUpload> {
  try {
    const body = JSON.parse(xhr?.responseText ?? '') as Partial<FinishedUpload>;
    if (typeof body.location === 'string' && typeof body.file_size === 'number')
      return body as FinishedUpload;
  } catch {
    // The last request was a HEAD (the upload had finished before): ask the server.
  }
  if (!uploadUrl) throw new Error(messages.upload.failed);
  const response = await fetch(new URL(uploadUrl).pathname, {
    credentials: 'include',
    headers: { Accept: 'application/json' },
  });
  const body = (await response.json()) as FinishedUpload & { message?: string };
  if (!response.ok) throw new Error(body.message ?? messages.upload.failed);
  return body;
}

/**
 * One video file sent with Uppy's tus uploader to `/companion`: in chunks, resumed after a
 * dropped connection or a server restart, with its progress. `done` carries the `location` the
 * server answered, which becomes the video's file_location_path.
 */
export function useVideoUpload(settings: UploadSettings | undefined) {
  const [state, setState] = useState<UploadState>({ phase: 'idle' });
  const uppyRef = useRef<Uppy<Meta, TusBody> | null>(null);

  useEffect(() => {
    if (!settings) return;
    const uppy = new Uppy<Meta, TusBody>({
      autoProceed: true,
      restrictions: {
        maxNumberOfFiles: 1,
        maxFileSize: settings.max_upload_bytes,
        allowedFileTypes: VIDEO_TYPES,
      },
    }).use(Tus, {
      endpoint: settings.endpoint,
      chunkSize: settings.chunk_size_bytes ?? limits.uploadChunkBytes,
      retryDelays: RETRY_DELAYS,
      withCredentials: true,
      removeFingerprintOnSuccess: true,
    });
    const describe = (file: { name?: string; size?: number | null } | undefined) => ({
      name: file?.name ?? '',
      size: file?.size ?? 0,
    });
    uppy.on('upload-progress', (file, progress) => {
      const total = progress.bytesTotal || file?.size || 1;
      const sent = progress.bytesUploaded;
      setState(
        sent >= total
          ? { phase: 'checking', ...describe(file) }
          : {
              phase: 'uploading',
              ...describe(file),
              percent: Math.floor((100 * sent) / total),
              offline: !navigator.onLine,
            },
      );
    });
    uppy.on('is-offline', () => setState((s) => (s.phase === 'uploading' ? { ...s, offline: true } : s)));
    uppy.on('is-online', () => setState((s) => (s.phase === 'uploading' ? { ...s, offline: false } : s)));
    uppy.on('upload-success', (file, response) => {
      setState({ phase: 'checking', ...describe(file) });
      finishedUpload(response.body?.xhr, response.uploadURL).then(
        (finished) =>
          setState({
            phase: 'done',
            ...describe(file),
            location: finished.location,
            fileSize: finished.file_size,
          }),
        (error: Error) =>
          setState({ phase: 'error', name: file?.name, message: error.message, canRetry: false }),
      );
    });
    uppy.on('upload-error', (file, error, response) => {
      const refusal = messageOf(response?.body?.xhr);
      setState({
        phase: 'error',
        name: file?.name,
        message: refusal ?? messages.upload.failed,
        canRetry: !refusal,
      });
      if (!refusal) uppy.log(error.message);
    });
    uppy.on('restriction-failed', (file, error) => {
      setState({ phase: 'error', name: file?.name, message: error.message, canRetry: false });
    });
    uppyRef.current = uppy;
    return () => {
      uppyRef.current = null;
      uppy.destroy();
    };
  }, [settings]);

  const start = useCallback((file: File) => {
    const uppy = uppyRef.current;
    if (!uppy) return;
    uppy.cancelAll();
    setState({ phase: 'uploading', name: file.name, size: file.size, percent: 0, offline: false });
    try {
      uppy.addFile({ name: file.name, type: file.type, data: file, source: 'Local' });
    } catch (error) {
      // Restrictions (size, type) refuse the file before any byte is sent.
      setState({ phase: 'error', name: file.name, message: (error as Error).message, canRetry: false });
    }
  }, []);

  const retry = useCallback(() => {
    void uppyRef.current?.retryAll();
  }, []);

  const cancel = useCallback(() => {
    uppyRef.current?.cancelAll();
    setState({ phase: 'idle' });
  }, []);

  return { state, start, retry, cancel, ready: Boolean(settings) };
}
