/**
 * Runs the system benchmarks alone (bench/run.ts runs them with the others):
 * `npx tsx bench/sys-run.ts [upload|thumbnail|bundle|startup ...] [--storage pglite|postgres]`.
 */
import type { Benchmark, BenchRow } from './lib/row.js';

const modules: Record<string, () => Promise<{ default: Benchmark }>> = {
  upload: () => import('./sys-upload.js'),
  thumbnail: () => import('./sys-thumbnail.js'),
  bundle: () => import('./sys-bundle.js'),
  startup: () => import('./sys-startup.js'),
};

const args = process.argv.slice(2);
const storageIndex = args.indexOf('--storage');
const storages = storageIndex >= 0 ? [args.splice(storageIndex, 2)[1] as 'pglite' | 'postgres'] : (['pglite', 'postgres'] as const);
const names = args.length > 0 ? args : Object.keys(modules);
const postgresUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://pathway:pathway@127.0.0.1:5432/postgres';

for (const name of names) {
  const run = (await modules[name]!()).default;
  for (const storage of name === 'bundle' ? (['pglite'] as const) : storages) {
    const rows: BenchRow[] = await run({ storage, postgresUrl });
    for (const row of rows) console.log(`${row.met === null ? ' ' : row.met ? '✓' : '✗'} ${row.figure}: ${row.value} (goal ${row.goal || '-'}) [${row.conditions}]`);
  }
}
