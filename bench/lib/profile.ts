import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './paths.js';

/** The parts of a V8 .cpuprofile (as `node --cpu-prof` writes it) that are read here. */
interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
  }[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface Frame {
  name: string;
  /** Share of the window's busy samples (idle ones left out) spent in this frame itself. */
  share: number;
}

/** A frame as read in a table: function, then the file relative to the repo or package, and line. */
function frameName(frame: CpuProfile['nodes'][number]['callFrame']): string {
  const fn = frame.functionName || '(anonymous)';
  if (!frame.url) return fn;
  let file = frame.url.replace(/^file:\/\//, '');
  const modules = file.lastIndexOf('/node_modules/');
  if (modules >= 0) file = file.slice(modules + '/node_modules/'.length);
  else if (file.startsWith(repoRoot)) file = path.relative(repoRoot, file);
  return `${fn} ${file}:${frame.lineNumber + 1}`;
}

/**
 * The frames with the most self time among the profile's samples taken inside the window
 * (microseconds of the monotonic clock both process.hrtime and V8's profiler use), so the
 * server's start-up and the unmeasured warm-up stay out of it.
 */
export function topFrames(
  file: string,
  window: { startMicros: number; endMicros: number },
  count = 5,
): { frames: Frame[]; samples: number } {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const selfTime = new Map<string, number>();
  let busy = 0;
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i += 1) {
    at += profile.timeDeltas[i]!;
    if (at < window.startMicros || at > window.endMicros) continue;
    const frame = byId.get(profile.samples[i]!)!;
    if (frame.functionName === '(idle)') continue;
    busy += 1;
    const name = frameName(frame);
    selfTime.set(name, (selfTime.get(name) ?? 0) + 1);
  }
  if (busy === 0) {
    throw new Error(
      `no sample of ${file} lies in the measured window (${window.startMicros}..${window.endMicros}; profile ${profile.startTime}..${profile.endTime})`,
    );
  }
  const frames = [...selfTime.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, n]) => ({ name, share: n / busy }));
  return { frames, samples: busy };
}

export function formatFrames(frames: Frame[]): string {
  return frames.map((f, i) => `${i + 1}. ${f.name} ${(f.share * 100).toFixed(1)} %`).join('; ');
}
