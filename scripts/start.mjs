#!/usr/bin/env node
// `npm start`: builds the console and the server when a build is missing or older than its
// sources, then runs the built server (plain JavaScript: nothing is transpiled at start), passing
// on the signals a process manager sends (SIGTERM, SIGINT).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
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
  const build = spawnSync('npm', ['run', 'build', '-w', '@pathway/web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

if (serverBundleIsStale()) {
  console.error('Building the server...');
  await buildServer();
}

const server = spawn(process.execPath, [serverBundle], { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
