#!/usr/bin/env node
// `npm start`: builds the console and the server when a build is missing or older than its
// sources, then runs the built server in this process (plain JavaScript: nothing is transpiled at
// start).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildServer, newestMtime, serverBundle, serverBundleIsStale } from './build-server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The first line an operator sees says which release this is (the root package.json's version).
const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
console.error(`Pathway ${version}`);
const webDist = path.join(root, 'apps/web/dist/index.html');
const webSources = [
  path.join(root, 'apps/web/src'),
  path.join(root, 'apps/web/index.html'),
  path.join(root, 'packages/contract/src'),
];

const builtAt = existsSync(webDist) ? statSync(webDist).mtimeMs : 0;
if (builtAt < Math.max(...webSources.map(newestMtime))) {
  console.error('Building the console...');
  // Warnings and errors only: the list of files Vite wrote says nothing an operator needs.
  const build = spawnSync(
    'npm',
    ['run', '--silent', 'build', '-w', '@pathway/web', '--', '--logLevel', 'warn'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  if (build.status !== 0) process.exit(build.status ?? 1);
}

if (serverBundleIsStale()) {
  console.error('Building the server...');
  await buildServer();
}

// The server runs in this process: a second Node process (another start, and signals to pass on)
// bought nothing. It sees the arguments it would have been given (none: `npm start` runs the
// default role), handles SIGTERM and SIGINT itself and exits with its own code.
process.chdir(root);
process.argv = [process.argv[0], serverBundle];
await import(pathToFileURL(serverBundle).href);
