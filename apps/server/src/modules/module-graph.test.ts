import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The lint keeps modules to each other's entries (eslint.config.js); this keeps the graph those
 * entries make free of cycles, which the lint cannot see: a cycle through two entries loads one
 * module half-initialised, and ties two features that should change apart.
 */
const MODULES = import.meta.dirname;
const modules = readdirSync(MODULES, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

function sourcesOf(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourcesOf(file);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [file] : [];
  });
}

/** The other modules a module's production files import (type-only imports included). */
function importsOf(name: string): Set<string> {
  const found = new Set<string>();
  for (const file of sourcesOf(path.join(MODULES, name))) {
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(/\bfrom\s+'(\.{1,2}\/[^']+)'/g)) {
      const target = path.relative(MODULES, path.resolve(path.dirname(file), spec!));
      const other = target.split(path.sep)[0]!;
      if (!target.startsWith('..') && other !== name && modules.includes(other)) found.add(other);
    }
  }
  return found;
}

/** A path of imports that comes back to where it began, or null. */
function findCycle(graph: Map<string, Set<string>>): string[] | null {
  const done = new Set<string>();
  const walk = (node: string, trail: string[]): string[] | null => {
    if (trail.includes(node)) return [...trail.slice(trail.indexOf(node)), node];
    if (done.has(node)) return null;
    for (const next of graph.get(node) ?? []) {
      const cycle = walk(next, [...trail, node]);
      if (cycle) return cycle;
    }
    done.add(node);
    return null;
  };
  for (const node of graph.keys()) {
    const cycle = walk(node, []);
    if (cycle) return cycle;
  }
  return null;
}

/**
 * The files `file` imports, and theirs, down to the end (relative imports, type-only included),
 * each with the chain of imports that reaches it.
 */
function reachedFrom(file: string): Map<string, string[]> {
  const reached = new Map<string, string[]>([[file, [file]]]);
  const queue = [file];
  for (let next = queue.shift(); next; next = queue.shift()) {
    for (const [, spec] of readFileSync(next, 'utf8').matchAll(/\bfrom\s+'(\.{1,2}\/[^']+)'/g)) {
      const resolved = path.resolve(path.dirname(next), spec!.replace(/\.js$/, '.ts'));
      const target = existsSync(resolved) ? resolved : path.join(resolved.replace(/\.ts$/, ''), 'index.ts');
      if (reached.has(target) || !existsSync(target)) continue;
      reached.set(target, [...reached.get(next)!, target]);
      queue.push(target);
    }
  }
  return reached;
}

describe('server modules', () => {
  it('each has a public entry, index.ts', () => {
    expect(modules.filter((name) => !existsSync(path.join(MODULES, name, 'index.ts')))).toEqual([]);
  });

  it('import each other without a cycle', () => {
    const graph = new Map(modules.map((name) => [name, importsOf(name)]));
    expect(findCycle(graph)).toBeNull();
  });

  it("are not reached from the app's context, which every module imports", () => {
    // A module reached from context.ts would put every module in one import cycle (the lint keeps
    // context.ts itself from importing one; this follows what it imports, too).
    const src = path.dirname(MODULES);
    const intoModules = [...reachedFrom(path.join(src, 'context.ts')).values()]
      .filter((chain) => chain.at(-1)!.startsWith(MODULES + path.sep))
      .map((chain) => chain.map((file) => path.relative(src, file)).join(' -> '));
    expect(intoModules).toEqual([]);
  });

  it('keep their presenters in presenter.ts', () => {
    // A row becomes an answer in one place per module, where a reviewer looks for which fields a
    // role may see.
    const elsewhere = modules.flatMap((name) =>
      sourcesOf(path.join(MODULES, name))
        .filter((file) => path.basename(file) !== 'presenter.ts')
        .filter((file) => /^(?:export )?function present[A-Z(]/m.test(readFileSync(file, 'utf8')))
        .map((file) => path.relative(MODULES, file)),
    );
    expect(elsewhere).toEqual([]);
  });

  it('finds a cycle when there is one (the check itself)', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
    ]);
    expect(findCycle(graph)).toEqual(['a', 'b', 'c', 'a']);
    expect(findCycle(new Map([['a', new Set(['b'])]]))).toBeNull();
  });
});
