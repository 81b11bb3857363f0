/**
 * `npm run bench [-- --only api|sys|ui] [--storage pglite|postgres|both] [--quick] [--api ...]` (`-- --help`)
 *
 * Runs the API benchmarks (bench/api-suite.ts), every system benchmark present (bench/sys-*.ts)
 * and the console in a browser (bench/ui-console.ts) in each storage mode asked for, prints one
 * table and writes it to bench/results.md (a --quick smoke run, a run of one part or of some API
 * figures write .tmp/bench-results-*.md instead).
 * PostgreSQL comes from BENCH_DATABASE_URL; each run works in a fresh database it drops after.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot } from './lib/paths.js';
import { storageOf, type Benchmark, type BenchRow } from './lib/row.js';
import { seconds } from './lib/stats.js';
import { whyMissed } from './missed-goals.js';

type Storage = 'pglite' | 'postgres';

/** The API figures `--api` may name (bench/api-suite.ts measures each group). */
const API_FIGURES = [
  'grid',
  'export',
  'import',
  'scaleout',
  'tablet',
  'dashboard',
  'adherence',
  'reports',
  'outcomes',
  'followup',
] as const;

const USAGE = `npm run bench [-- --only api|sys|ui] [--storage pglite|postgres|both] [--quick] [--api ${API_FIGURES.join(',')}]

  --only api|sys|ui    the API benchmarks (bench/api-suite.ts), the system ones (bench/sys-*.ts) or the
                       console in Chromium (bench/ui-console.ts) alone
  --storage            pglite, postgres or both (default); PostgreSQL from BENCH_DATABASE_URL
  --quick              small sizes, a smoke run: writes .tmp/bench-results-quick.md, not bench/results.md
  --api a,b            some of the API figures only: ${API_FIGURES.join(', ')}
  --help               this text`;

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

function parse() {
  try {
    return parseArgs({
      options: {
        only: { type: 'string' },
        storage: { type: 'string', default: 'both' },
        quick: { type: 'boolean', default: false },
        // Some of the API figures only, for working on one of them (the table then has only those).
        api: { type: 'string' },
        help: { type: 'boolean', default: false },
      },
      strict: true,
    }).values;
  } catch (error) {
    return fail((error as Error).message);
  }
}
const values = parse();
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

if (values.only !== undefined && !['api', 'sys', 'ui'].includes(values.only))
  fail('--only must be api, sys or ui');
if (!['pglite', 'postgres', 'both'].includes(values.storage))
  fail('--storage must be pglite, postgres or both');
const storages: Storage[] = values.storage === 'both' ? ['pglite', 'postgres'] : [values.storage as Storage];
const postgresUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://pathway:pathway@127.0.0.1:5432/postgres';
// Every module reads the size of the run from here, the system ones included.
if (values.quick) process.env.BENCH_QUICK = '1';
if (values.api) {
  const unknown = values.api.split(',').filter((f) => !(API_FIGURES as readonly string[]).includes(f));
  if (unknown.length) fail(`--api takes ${API_FIGURES.join(', ')} (not ${unknown.join(', ')})`);
  process.env.BENCH_API_FIGURES = values.api;
}

interface Suite {
  name: string;
  run: Benchmark;
}

/**
 * System modules whose figure does not depend on the storage mode: run in the first mode only.
 * An upload's bytes go to the media store whatever the database (it is touched twice per upload),
 * and its 1 GiB rounds are a fifth of the run's time budget.
 */
const STORAGE_INDEPENDENT = new Set(['sys-bundle', 'sys-upload']);

async function suites(): Promise<Suite[]> {
  const found: Suite[] = [];
  const only = values.only;
  if (only === undefined || only === 'api')
    found.push({ name: 'api', run: (await import('./api-suite.js')).default });
  if (only === undefined || only === 'sys') {
    const files = readdirSync(path.join(repoRoot, 'bench'))
      .filter((f) => /^sys-.*\.ts$/.test(f))
      .sort();
    for (const file of files) {
      const module = (await import(`./${file.replace(/\.ts$/, '.js')}`)) as { default: Benchmark };
      found.push({ name: file.replace(/\.ts$/, ''), run: module.default });
    }
  }
  if (only === undefined || only === 'ui')
    found.push({ name: 'ui-console', run: (await import('./ui-console.js')).default });
  return found;
}

const storageLabel = (storage: Storage) => (storage === 'pglite' ? 'PGlite' : 'PostgreSQL');

/** Issue 41: the embedded default's CPU per request at most this many times PostgreSQL's. */
const PGLITE_VS_POSTGRES_GOAL = 1.5;

/**
 * For each CPU-per-request figure measured on both databases in this run, PGlite's against
 * PostgreSQL's: the same requests on the same data, so the ratio is what the embedded default
 * costs an installation for that path.
 */
function storageComparison(rows: BenchRow[]): BenchRow[] {
  const cpuRows = (storage: ReturnType<typeof storageOf>) =>
    rows.filter((row) => row.cpuMsPerRequest !== undefined && storageOf(row) === storage);
  const postgres = new Map(cpuRows('PostgreSQL').map((row) => [row.figure, row.cpuMsPerRequest!]));
  return cpuRows('PGlite').flatMap((row) => {
    const theirs = postgres.get(row.figure);
    if (theirs === undefined) return [];
    const ours = row.cpuMsPerRequest!;
    const ratio = ours / theirs;
    return [
      {
        figure: `PGlite vs PostgreSQL, ${row.figure.replace(/: CPU per request$/, '')}: CPU per request`,
        value: `${ratio.toFixed(2)}x (${ours.toFixed(2)} ms vs ${theirs.toFixed(2)} ms)`,
        goal: `≤ ${PGLITE_VS_POSTGRES_GOAL}x`,
        met: ratio <= PGLITE_VS_POSTGRES_GOAL,
        conditions:
          'PGlite and PostgreSQL 15 in this run, each figure from its own row above (the same data, requests and rounds): the server process with PGlite inside against the server process and its PostgreSQL backends',
      },
    ];
  });
}

function table(rows: BenchRow[]): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const lines = [
    '| figure | value | goal | met | why missed (the evidence; what was tried) | conditions |',
    '|---|---|---|---|---|---|',
  ];
  for (const row of rows) {
    const met = row.met === null ? '' : row.met ? 'yes' : '**no**';
    lines.push(
      `| ${cell(row.figure)} | ${cell(row.value)} | ${cell(row.goal)} | ${met} | ${cell(row.whyMissed ?? '')} | ${cell(row.conditions)} |`,
    );
  }
  return lines.join('\n');
}

async function main() {
  const started = performance.now();
  const startedAt = new Date();
  const loadAtStart = os.loadavg()[0]!;
  const rows: BenchRow[] = [];
  const failures: string[] = [];
  const all = await suites();
  for (const [index, storage] of storages.entries()) {
    for (const suite of all) {
      if (index > 0 && STORAGE_INDEPENDENT.has(suite.name)) continue;
      console.log(`\n== ${suite.name} on ${storageLabel(storage)} ==`);
      const suiteStarted = performance.now();
      try {
        const produced = await suite.run({
          storage,
          postgresUrl: storage === 'postgres' ? postgresUrl : undefined,
        });
        for (const row of produced) {
          // A system module may leave the storage mode out of its conditions; the table needs it.
          const named = STORAGE_INDEPENDENT.has(suite.name) || /PGlite|PostgreSQL/.test(row.conditions);
          rows.push(named ? row : { ...row, conditions: `${storageLabel(storage)}; ${row.conditions}` });
        }
      } catch (error) {
        const message = `${suite.name} on ${storageLabel(storage)} failed: ${(error as Error).stack ?? String(error)}`;
        console.error(message);
        failures.push(message.split('\n')[0]!);
      }
      console.log(
        `  (${suite.name} on ${storageLabel(storage)}: ${seconds(performance.now() - suiteStarted)})`,
      );
    }
  }
  if (storages.length > 1) rows.push(...storageComparison(rows));
  for (const row of rows) if (row.met === false) row.whyMissed = whyMissed(row);
  const total = performance.now() - started;
  const cpus = os.cpus();
  const header = [
    '# Pathway benchmarks',
    '',
    `Written by \`npm run bench${process.argv.slice(2).length ? ` -- ${process.argv.slice(2).join(' ')}` : ''}\` (see bench/run.ts).`,
    '',
    `- date: ${startedAt.toISOString().replace(/\.\d+Z$/, 'Z')}`,
    `- machine: ${cpus.length} cores (${cpus[0]?.model.trim() ?? 'unknown CPU'}), ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM, ${os.type()} ${os.release()}, Node.js ${process.version}`,
    `- storage: ${storages.map(storageLabel).join(' and ')}; server and load generator on the same machine over loopback`,
    // Other work on the machine inflates every figure: the 1-minute load average says how much.
    `- load average (1 min) at start and end: ${loadAtStart.toFixed(1)}, ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`,
    `- whole run: ${seconds(total)}${values.quick ? ' (--quick: small sizes, a smoke run; not the figures)' : ''}`,
    ...(failures.length ? ['', '**Failed:**', ...failures.map((f) => `- ${f}`)] : []),
    '',
  ].join('\n');
  const text = `${header}\n${table(rows)}\n`;
  console.log(`\n${text}`);
  // A smoke run, a run of one part (--only) or of some API figures leaves the full table of
  // bench/results.md alone.
  const target = values.quick
    ? path.join(repoRoot, '.tmp', 'bench-results-quick.md')
    : values.api
      ? path.join(repoRoot, '.tmp', `bench-results-${values.api.replace(/,/g, '-')}.md`)
      : values.only
        ? path.join(repoRoot, '.tmp', `bench-results-${values.only}.md`)
        : path.join(repoRoot, 'bench', 'results.md');
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, text + handWrittenSections(target));
  console.log(`written to ${path.relative(repoRoot, target)}`);
  process.exit(failures.length ? 1 : 0);
}

/**
 * The sections written by hand below the generated table (`## ...`: a branch's before and after,
 * where a missed goal's time goes), kept when the table is written again.
 */
function handWrittenSections(file: string): string {
  if (!existsSync(file)) return '';
  const previous = readFileSync(file, 'utf8');
  const start = previous.search(/^## /m);
  return start < 0 ? '' : `\n${previous.slice(start)}`;
}

await main();
