/**
 * Where ffmpeg and ffprobe come from: the system's when on PATH, else the ones shipped in npm
 * packages (resolved once at start by the videos module's resolveVideoTools). In lib/ because the
 * app's context holds them, and the context depends on no module.
 */
export interface VideoTools {
  ffmpeg: string;
  ffprobe: string;
  source: 'system' | 'npm';
}
