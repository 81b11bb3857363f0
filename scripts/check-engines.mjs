#!/usr/bin/env node
// Every package `npm ci` installs must declare that it runs on the oldest Node.js this project
// supports (package.json's engines.node, Node 20 today). npm only warns about a package that does
// not, and such a package tends to work until the day it uses what only a newer Node has; this
// check fails instead, naming the package and who brings it in. Read from package-lock.json, which
// is exactly what `npm ci` installs. A package is kept on Node 20 by pinning it to an older major in
// package.json's overrides (docs/operations.md, "Dependencies on Node.js 20").
import { readFileSync } from 'node:fs';
import semver from 'semver';

const root = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const lock = JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8'));
const oldest = semver.minVersion(root.engines.node);

const packages = lock.packages;

/** Where a package at `from` finds `name`, as Node resolves it: its own node_modules, then each parent's. */
function resolve(from, name) {
  for (let at = from; ; at = at.slice(0, Math.max(0, at.lastIndexOf('/node_modules/')))) {
    const location = `${at ? `${at}/` : ''}node_modules/${name}`;
    if (packages[location]) return location;
    if (!at) return undefined;
  }
}

/** Each installed package and who brings it in, walked from the project and its workspaces. */
const dependents = new Map();
const queue = [''];
for (const location of queue) {
  // A workspace is a link to its folder, whose entry holds its dependencies.
  const at = packages[location].link ? packages[location].resolved : location;
  const pkg = packages[at];
  const wanted = Object.keys({
    ...pkg.dependencies,
    ...pkg.optionalDependencies,
    ...pkg.peerDependencies,
    ...pkg.devDependencies,
  });
  if (location === '') wanted.push(...root.workspaces.map((workspace) => packages[workspace].name));
  const by =
    location === '' ? root.name : `${pkg.name ?? at.replace(/^.*node_modules\//, '')}@${pkg.version}`;
  for (const name of wanted) {
    const found = resolve(at, name);
    if (!found) continue; // an optional peer not installed
    if (!dependents.has(found)) {
      dependents.set(found, []);
      queue.push(found);
    }
    dependents.get(found).push(by);
  }
}

const refusing = [...dependents]
  // npm leaves out an optional package that does not fit (rollup lists one of its own build's).
  .filter(
    ([location]) =>
      packages[location].engines?.node && !packages[location].link && !packages[location].optional,
  )
  .filter(([location]) => !semver.satisfies(oldest, packages[location].engines.node))
  .map(([location, by]) => {
    const name = location.slice(location.lastIndexOf('node_modules/') + 'node_modules/'.length);
    const { version, engines } = packages[location];
    return `${name}@${version} needs Node ${engines.node} (brought in by ${[...new Set(by)].join(', ')})`;
  });

if (refusing.length > 0) {
  console.error(
    `These packages do not run on Node ${oldest} (package.json's engines.node is ${root.engines.node}):`,
  );
  for (const line of refusing) console.error(`  ${line}`);
  process.exit(1);
}
console.log(`Every installed package runs on Node ${oldest}.`);
