// Builds the server once into one ES module, so `npm start` runs plain JavaScript instead of
// transpiling every TypeScript file of the server and the contract at each start (the largest
// part of the start-up time). Dependencies stay in node_modules, loaded as they are: some find
// files beside their own code (PGlite's WASM, argon2's native module, the ffmpeg binaries).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// Two levels below apps/server, like the modules under apps/server/src/<dir>/ that find files
// relative to themselves (../../drizzle for migrations, ../../../web/dist for the console):
// bundled, they read import.meta.url of this file, and the same relative paths still hold.
export const serverBundle = path.join(root, 'apps/server/dist/bundle/main.js');

const serverSources = [
  path.join(root, 'apps/server/src'),
  path.join(root, 'packages/contract/src'),
  path.join(root, 'apps/server/package.json'),
  path.join(root, 'packages/contract/package.json'),
  fileURLToPath(import.meta.url),
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

/** Bundles apps/server/src/main.ts with the workspace's own packages; every other package is imported at run time. */
export async function buildServer() {
  // Imported here: a start with an up-to-date build does not load the bundler at all.
  const { build } = await import('esbuild');
  // No chunk of an earlier build stays beside the new one.
  await rm(path.dirname(serverBundle), { recursive: true, force: true });
  await build({
    entryPoints: [path.join(root, 'apps/server/src/main.ts')],
    outdir: path.dirname(serverBundle),
    bundle: true,
    // What the server imports only when configured (the S3 store) becomes a chunk of its own, loaded then.
    splitting: true,
    // Beside main.js: every file of the build must sit two levels below apps/server (see above).
    chunkNames: '[name]-[hash]',
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    // Readable stack traces in the logs without source maps.
    keepNames: true,
    logLevel: 'warning',
    plugins: [
      {
        name: 'dependencies-stay-external',
        setup(context) {
          // Bare imports are packages: ours (@pathway/*, TypeScript sources) are bundled, the rest stay external.
          context.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@pathway/') || path.isAbsolute(args.path)
              ? undefined
              : { path: args.path, external: true },
          );
        },
      },
    ],
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await buildServer();
  console.error(`Built ${path.relative(root, serverBundle)}`);
}
