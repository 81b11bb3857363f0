#!/usr/bin/env node
// `npm start`: builds the console when its build is missing or older than its sources, then runs
// the server, passing on the signals a process manager sends (SIGTERM, SIGINT).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const webDist = path.join(root, 'apps/web/dist/index.html');
const webSources = [path.join(root, 'apps/web/src'), path.join(root, 'apps/web/index.html'), path.join(root, 'packages/contract/src')];

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(target).reduce((newest, name) => Math.max(newest, newestMtime(path.join(target, name))), stat.mtimeMs);
}

const builtAt = existsSync(webDist) ? statSync(webDist).mtimeMs : 0;
if (builtAt < Math.max(...webSources.map(newestMtime))) {
  console.error('Building the console...');
  const build = spawnSync('npm', ['run', 'build', '-w', '@pathway/web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const server = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')], {
  cwd: root,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
