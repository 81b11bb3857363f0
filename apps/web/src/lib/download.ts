/** Saves a blob under the given file name through the browser's download manager. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the URL by now; keep it a moment for slow browsers.
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}
