#!/usr/bin/env node
// `npm run cli -- <command>`: runs the operators' CLI from the bundle `npm start` builds
// (apps/server/dist/bundle/cli.js, plain JavaScript) when that bundle is up to date with the
// sources, and from the TypeScript sources through tsx otherwise. It never builds: a build replaces
// the bundle's directory, under a server that may be running from it. Bundled, a command needs no
// transpiling and loads a few files, so it starts in a fraction of the CPU (docs/operations.md).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cliBundle, serverBundleIsStale } from './build-server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);

if (serverBundleIsStale()) {
  const source = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'apps/server/src/cli.ts'), ...args],
    { stdio: 'inherit' },
  );
  process.exit(source.status ?? 1);
}
// The CLI runs in this process, with the arguments it would have been given.
process.argv = [process.argv[0], cliBundle, ...args];
await import(pathToFileURL(cliBundle).href);
