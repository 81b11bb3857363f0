/**
 * The console's download, gzipped: what the sign-in page loads, the console chunk it loads next,
 * and what the heaviest page loads (from a fresh tab, so with the entry and the console), read
 * from Vite's build manifest rather than guessed.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Benchmark, BenchRow } from './lib/row.js';
import { formatNumber, repoRoot } from './sys-lib/server.js';

const dist = path.join(repoRoot, 'apps/web/dist');
const SIGN_IN_GOAL_KB = 120;
const LARGEST_ROUTE_GOAL_KB = 350;

interface ManifestChunk {
  file: string;
  src?: string;
  name?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
  assets?: string[];
}
type Manifest = Record<string, ManifestChunk>;

/** The files a chunk brings with it before it runs: itself, its static imports (transitively), their CSS. */
function staticClosure(manifest: Manifest, key: string, files = new Set<string>()): Set<string> {
  const chunk = manifest[key]!;
  if (files.has(chunk.file)) return files;
  files.add(chunk.file);
  for (const css of chunk.css ?? []) files.add(css);
  for (const imported of chunk.imports ?? []) staticClosure(manifest, imported, files);
  return files;
}

const gzippedBytes = (file: string) => gzipSync(readFileSync(path.join(dist, file))).length;
const kb = (bytes: number) => bytes / 1024;

function routeLabel(chunk: ManifestChunk): string {
  return chunk.src ? path.basename(chunk.src).replace(/\.tsx?$/, '') : (chunk.name ?? chunk.file);
}

const sysBundle: Benchmark = async () => {
  const build = spawnSync('npm', ['run', 'build', '-w', '@pathway/web'], { cwd: repoRoot, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`the console build failed:\n${build.stdout}\n${build.stderr}`);
  const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Manifest;
  const entryKey = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  if (!entryKey) throw new Error('the manifest names no entry');

  // The sign-in page is part of the entry (it must show without a further round trip).
  const signIn = new Set(['index.html', ...staticClosure(manifest, entryKey)]);
  const signInBytes = [...signIn].reduce((sum, file) => sum + gzippedBytes(file), 0);

  // The entry loads the console (router, query cache, route guards) as a chunk of its own: after
  // signing in, or at once for any other address. That chunk loads the signed-in shell and each
  // page lazily: a page opened in a fresh tab loads the entry, the console, the shell and the
  // page, each with its static imports. What a page loads later (a dialog when it opens) is not
  // part of it.
  // Vite keys the chunk by its file name when it holds more than the module (routes.tsx, guards).
  const consoleKey = (manifest[entryKey]!.dynamicImports ?? []).find(
    (key) => key.endsWith('app/ConsoleApp.tsx') || manifest[key]!.name === 'ConsoleApp',
  );
  if (!consoleKey) throw new Error('the entry does not load app/ConsoleApp.tsx lazily');
  const withConsole = staticClosure(manifest, consoleKey, new Set(signIn));
  const consoleOnly = [...withConsole].filter((file) => !signIn.has(file));
  const consoleBytes = consoleOnly.reduce((sum, file) => sum + gzippedBytes(file), 0);
  const lazyFromConsole = manifest[consoleKey]!.dynamicImports ?? [];
  const shellKeys = lazyFromConsole.filter((key) => key.includes('/layout/'));
  const shell = new Set(withConsole);
  for (const key of shellKeys) staticClosure(manifest, key, shell);
  const routes = lazyFromConsole
    // A page's chunk is keyed by its file name (not its source) when it holds more than the page.
    .filter((key) => key.includes('/features/') || (key.startsWith('_') && !shellKeys.includes(key)))
    .map((key) => {
      const files = new Set([...shell, ...staticClosure(manifest, key)]);
      return {
        label: routeLabel(manifest[key]!),
        files,
        bytes: [...files].reduce((sum, file) => sum + gzippedBytes(file), 0),
      };
    })
    .sort((a, b) => b.bytes - a.bytes);
  const largest = routes[0];
  if (!largest) throw new Error('the manifest has no lazily loaded page');

  const heaviest = (files: Set<string>) =>
    [...files]
      .map((file) => ({ file, bytes: gzippedBytes(file) }))
      .sort((a, b) => b.bytes - a.bytes)
      .slice(0, 3)
      .map(({ file, bytes }) => `${path.basename(file)} ${formatNumber(kb(bytes))}`)
      .join(', ');
  const rows: BenchRow[] = [
    {
      figure: 'console bundle, gzipped: sign-in route (index.html, entry, its static imports, CSS)',
      value: `${formatNumber(kb(signInBytes))} KB`,
      goal: `≤ ${SIGN_IN_GOAL_KB} KB`,
      met: kb(signInBytes) <= SIGN_IN_GOAL_KB,
      conditions: `vite build, files from dist/.vite/manifest.json, gzip level 6, KB = 1,024 bytes (${signIn.size} files; largest: ${heaviest(signIn)} KB)`,
    },
    {
      figure:
        'console bundle, gzipped: the console chunk the sign-in page loads next (router, query cache, guards)',
      value: `${formatNumber(kb(consoleBytes))} KB`,
      goal: '',
      met: null,
      conditions: `what app/ConsoleApp.tsx adds to the sign-in route (${consoleOnly.length} files; largest: ${heaviest(new Set(consoleOnly))} KB); then the shell (app/layout) and the page`,
    },
    {
      figure: `console bundle, gzipped: largest route (${largest.label}, with the entry and the signed-in shell)`,
      value: `${formatNumber(kb(largest.bytes))} KB`,
      goal: `≤ ${LARGEST_ROUTE_GOAL_KB} KB`,
      met: kb(largest.bytes) <= LARGEST_ROUTE_GOAL_KB,
      conditions: `${largest.files.size} files; largest: ${heaviest(largest.files)} KB; next routes: ${routes
        .slice(1, 3)
        .map((r) => `${r.label} ${formatNumber(kb(r.bytes))} KB`)
        .join(', ')}`,
    },
  ];
  return rows;
};

export default sysBundle;
