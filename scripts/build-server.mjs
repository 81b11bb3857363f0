// Builds the server once into ES modules, so `npm start` runs plain JavaScript instead of
// transpiling every TypeScript file of the server and the contract at each start, and loads its
// dependencies as a few large files instead of resolving and reading about a thousand of them one
// by one, a large part of a start's CPU. Dependencies that find files beside their own code stay
// in node_modules, loaded as they are (see KEEP_EXTERNAL).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// Two levels below apps/server, like the modules under apps/server/src/<dir>/ that find files
// relative to themselves (../../drizzle for migrations, ../../../web/dist for the console):
// bundled, they read import.meta.url of this file, and the same relative paths still hold.
export const serverBundle = path.join(root, 'apps/server/dist/bundle/main.js');
/** The operators' CLI (`npm run cli`, scripts/cli.mjs), bundled beside the server and sharing its chunks. */
export const cliBundle = path.join(root, 'apps/server/dist/bundle/cli.js');

const serverSources = [
  path.join(root, 'apps/server/src'),
  path.join(root, 'packages/contract/src'),
  path.join(root, 'apps/server/package.json'),
  path.join(root, 'packages/contract/package.json'),
  // The dependencies are in the bundle: a changed lockfile (npm ci after an upgrade) rebuilds it.
  path.join(root, 'package-lock.json'),
  fileURLToPath(import.meta.url),
];

/**
 * Packages left out of the bundle and imported from node_modules at run time: each reads files
 * beside its own code (PGlite its WebAssembly and file-system image, argon2 its native module, the
 * ffmpeg installers their binaries, swagger-ui its static pages, @fastify/swagger its package.json,
 * pino the worker file of a transport), or is loaded only when configured (the S3 SDK) or never by
 * the server (the bundler itself, tsx).
 */
const KEEP_EXTERNAL = [
  /^@electric-sql\/pglite(\/|$)/,
  /^argon2$/,
  /^@ffmpeg-installer\//,
  /^@ffprobe-installer\//,
  /^@fastify\/swagger(-ui)?$/,
  /^pino(\/|$)/,
  /^thread-stream$/,
  /^@aws-sdk\//,
  // Reports (issue 33): the XLSX writer is loaded only when a workbook is asked for.
  /^exceljs$/,
  /^esbuild$/,
  /^tsx(\/|$)/,
];

export function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(target).reduce(
    (newest, name) => Math.max(newest, newestMtime(path.join(target, name))),
    stat.mtimeMs,
  );
}

export function serverBundleIsStale() {
  const builtAt = existsSync(serverBundle) ? statSync(serverBundle).mtimeMs : 0;
  return builtAt < Math.max(...serverSources.map(newestMtime));
}

/**
 * Bundles apps/server/src/main.ts and cli.ts (and the worker threads they start) with their
 * dependencies, but for those in KEEP_EXTERNAL.
 */
export async function buildServer() {
  // Imported here: a start with an up-to-date build does not load the bundler at all.
  const { build } = await import('esbuild');
  // No chunk of an earlier build stays beside the new one.
  await rm(path.dirname(serverBundle), { recursive: true, force: true });
  await build({
    entryPoints: [
      path.join(root, 'apps/server/src/main.ts'),
      path.join(root, 'apps/server/src/cli.ts'),
      // A worker thread's own entry, beside main.js where the server looks for it (backup.ts).
      { in: path.join(root, 'apps/server/src/backup/pglite-copy.worker.mjs'), out: 'pglite-copy.worker' },
    ],
    outdir: path.dirname(serverBundle),
    bundle: true,
    // Our own modules the server imports only when it needs them (the S3 stores) become chunks of
    // their own, loaded then (a package imported that way stays in node_modules: see the plugin).
    splitting: true,
    // Beside main.js: every file of the build must sit two levels below apps/server (see above).
    chunkNames: '[name]-[hash]',
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    // Readable stack traces in the logs without source maps.
    keepNames: true,
    logLevel: 'warning',
    // Dependencies written as CommonJS call require() for Node's own modules (and optional
    // packages): in an ES module it is made here, resolving from the bundle's directory.
    banner: {
      js: "import { createRequire as __pathwayCreateRequire } from 'node:module'; const require = __pathwayCreateRequire(import.meta.url);",
    },
    plugins: [
      {
        name: 'some-dependencies-stay-external',
        setup(context) {
          // Bare imports are packages: bundled (ours, TypeScript sources, and every other one not
          // kept out). A package imported lazily (`import()`) stays out too and is loaded by Node as
          // it is from the sources: bundled into a chunk, a CommonJS package exports only `default`
          // where Node's loader also gives its named exports. The password dictionary
          // (`common.dictionary`) and the FCM client (`{ JWT }`) came out undefined that way, and
          // every new staff password and every push message failed under `npm start` (found when the
          // process tests moved from the sources to this bundle).
          context.onResolve({ filter: /^[^./]/ }, (args) =>
            args.kind === 'dynamic-import' || KEEP_EXTERNAL.some((pattern) => pattern.test(args.path))
              ? { path: args.path, external: true }
              : undefined,
          );
        },
      },
    ],
  });
}

/** Builds the bundle when a source is newer than it (`npm start`, and the test suites' setups). */
export async function buildServerIfStale() {
  if (serverBundleIsStale()) await buildServer();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await buildServer();
  console.error(`Built ${path.relative(root, serverBundle)}`);
}
