export const LOG_VIEWER_PATH = '/serverlogs/view/:fileName';

export function logViewerPath(fileName: string): string {
  return `/serverlogs/view/${encodeURIComponent(fileName)}`;
}
