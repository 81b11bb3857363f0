/**
 * Why a goal of the table is missed on this hardware: the cause, the evidence that shows it (a row
 * of the same run, most often the figure's "top five frames" from its CPU profile, or a section
 * of bench/results.md below the table) and what was tried. bench/run.ts writes the reason beside
 * every missed row; a missed row without one here says so, so that no miss is left unexplained.
 * A reason is kept while its goal is missed in some whole run; one met for good is removed.
 */
import { storageOf } from './lib/row.js';

type Storage = NonNullable<ReturnType<typeof storageOf>>;

interface MissedGoal {
  /** The rows it explains, by their figure. */
  figure: RegExp;
  /** The database the reason holds for; both when absent. */
  storage?: Storage;
  why: string;
}

/** PGlite's own cost, common to its CPU figures. */
const PGLITE_ONE_THREAD =
  'PGlite runs PostgreSQL (compiled to WebAssembly) and its own reading of every answer in the server ' +
  "process's one thread: the figure's top five frames (its row in this table) are PGlite's " +
  'WebAssembly functions and `bn` (its result parser). Patched away (patches/README.md): its copy ' +
  'of each value before decoding it (`bytes`, 15-17 % of the grid), its private-field helpers ' +
  '(`h`, `n`, about 5 %), and inside `bn` a copy of its 316 type parsers per statement and a parser ' +
  'looked up per value';

const MISSED_GOALS: MissedGoal[] = [
  {
    figure: /^GET \/api\/participant (first page|page of 100 from \S+), state \+ sort.*CPU per request$/,
    storage: 'PGlite',
    why:
      `${PGLITE_ONE_THREAD}. The page's two statements alone cost 4-7 ms of PGlite's CPU (the ` +
      '"endpoint vs the same SQL alone" row), over the goal before any HTTP. Tried and kept: the ' +
      'patches above. Tried: one paged statement ' +
      'per page (issue 42), rows as arrays, the statement prepared (4.5-4.9 against 5.4-7.0 ms, but ' +
      "PGlite's `query` cannot bind parameters to `EXECUTE`), PGlite in a worker thread " +
      '(bench/pglite-worker-trial.mjs: CPU per request does not fall, the messages add 0-0.2 ms). Open upstream: ' +
      'electric-sql/pglite#1050 (its result parser allocates per row).',
  },
  {
    figure: /^GET \/api\/participant page of 100 from \S+, state \+ sort: (throughput|p99 under load)$/,
    storage: 'PGlite',
    why:
      "One thread serves HTTP and runs the database: at the page's CPU per request (its row) one core " +
      'gives at most 1,000 / that many pages a second, and 10 connections queue behind each other. ' +
      `${PGLITE_ONE_THREAD}.`,
  },
  {
    figure: /^GET \/api\/participant first page, state \+ sort.*CPU per request$/,
    storage: 'PostgreSQL',
    why:
      "The server's own JavaScript is about half of it (profile bench/profiles/postgres-grid-*.cpuprofile): " +
      "`writev` (loopback sends of each query and answer), reading PostgreSQL's answer (pg-protocol, " +
      'utf8 decoding), three timestamps a row parsed into Dates and written back as text, the JSON, ' +
      "the request's log line. A quiet whole run gave 5.76 ms at 100k (results.md, 2026-12-07 third stop). " +
      'Tried and kept: the page prepared with its size in the text (PostgreSQL plans it once), one ' +
      'statement per page, rows kept out of the old generation. Not tried: timestamps read as text.',
  },
  {
    figure: /^GET \/api\/participant page of 100 from \S+, state \+ sort, under load: CPU per request$/,
    storage: 'PostgreSQL',
    why:
      'Met at 2.14-2.33 ms on a quiet machine on 2026-11-27. Row-level security (issue 39) costs about ' +
      'a third more: each scoped statement sets the staff role and its scope, and the policies add ' +
      "their conditions to the plan (2.87 → 4.07 ms alternated, results.md, issue 39's sections); a " +
      "quiet run since: 3.94 ms. Of the rest, the server's share is its JavaScript: loopback `writev`, reading the " +
      'answer, timestamps, JSON, the log line (the top five frames row).',
  },
  {
    figure: /^GET \/api\/participant page of 100 from \S+, state \+ sort: (throughput|p99 under load)$/,
    storage: 'PostgreSQL',
    why:
      'The server, PostgreSQL and the load generator share 2 cores: at the CPU per page under load (its ' +
      'row) both cores are busy before 600 pages a second. 703 req/s and p99 24 ms were met on ' +
      '2026-11-27 before row-level security; a quiet run after it: 390 req/s, p99 45 ms.',
  },
  {
    figure: /^GET \/api\/participant page of 100 from \S+, state \+ sort: endpoint vs the same SQL alone$/,
    why:
      "What the endpoint adds to its SQL is the server's JavaScript around it: HTTP, the session's " +
      'cookie, loopback sends, reading the answer, timestamps, the JSON, the log line (the under-load ' +
      "top five frames row). 1.3x would leave the server about a third of the SQL's time for all of it; " +
      "results.md, 2026-11-27 third session, has the profile by package. On PGlite the SQL's time " +
      'includes its JavaScript reading the rows, which the endpoint then presents again.',
  },
  {
    figure: /^deep page .* by offset \(page jump\) vs first page/,
    why:
      'OFFSET reads and discards every row before the page, by construction: page 900 of 1,000 walks ' +
      "90,000 index entries first. The console's paging goes by cursor (the row above, the same cost " +
      'as the first page); an offset serves only a typed page number. A jump by key would need the sort ' +
      'key of every hundredth row kept up to date on each write, for every sort.',
  },
  {
    figure: /^deep page .* by cursor \(console paging\) vs first page/,
    why:
      "A cursor page runs the first page's plan from the cursor's key (the same index walk). Met in " +
      'the whole runs before (0.98x, 1.28x at 100k on PostgreSQL); a median of 10 sequential requests ' +
      'on the shared 2-core machine moves this much.',
  },
  {
    figure: /^tablet call 1 GET \/uuid\/\{id\}, 50-week programme: CPU per request$/,
    storage: 'PGlite',
    why:
      `${PGLITE_ONE_THREAD}; and \`writev\` of the 153 KB answer. Tried and kept: both rate limits in ` +
      'one statement (2 round trips instead of 3).',
  },
  {
    figure: /^tablet call 1 GET \/uuid\/\{id\}, 50-week programme: CPU per request$/,
    storage: 'PostgreSQL',
    why:
      'Within a few tenths of the goal (3.14 ms on a quiet machine, 2026-12-07 third stop). The profile: ' +
      "`writev` of the 153 KB answer and the statements, then the request's log lines and their " +
      'redaction (about 16 % of the busy samples). Tried and kept: both rate limits in one statement.',
  },
  {
    figure:
      /^GET \/api\/followup first page, 100k participants(: p99 under load|, under load: CPU per request)$/,
    storage: 'PostgreSQL',
    why:
      'The cores are full: on 2026-12-08, 8,254 requests in 15 s at 10 connections, 18 ms each on ' +
      'average of which 3.08 ms CPU; the server and PostgreSQL used 1.7 of the 2 cores and the load ' +
      'generator the rest, so the p99 is the wait for a core (72 ms the run before, at 5.04 ms CPU). ' +
      'Tried and kept: its generic plan, site_id in its indexes (migrations 0032, 0033), its total from ' +
      "the tally's days instead of every silent tablet and not started (0034; results.md, 2026-12-08).",
  },
  {
    figure: /^daily adherence check over 100k participants$/,
    why:
      'The check must write what moved: about 164,000 reminders with their foreign-key checks, 82,000 ' +
      'adherence rows and 100,000 progress rows (the "where the time goes" row below it, from EXPLAIN ' +
      'ANALYZE). Met on PostgreSQL in a quiet run (2.92 s, 2026-11-27); PGlite runs the same statement ' +
      "in WebAssembly at 1.7-2.7x PostgreSQL's CPU. Tried and kept: reminders as a plain insert, the " +
      "tally's trigger joining once, only the rows that moved written (results.md, issue 41's sections).",
  },
  {
    figure: /^`npm start` to GET \/readyz 200 on an existing data dir$/,
    storage: 'PGlite',
    why:
      "Node loading the bundle about 0.5 s, PGlite opening 0.4-0.55 s (PostgreSQL's own start inside " +
      'WebAssembly: a precompiled module saves nothing, its compile is 50 ms), the app 0.45 s, and npm ' +
      "itself about 0.35 s (results.md, 2026-12-07 third stop and issue 41's start-up section). Tried " +
      'and kept: pg-boss found and its cron started after listening; not kept: V8 heap flags.',
  },
  {
    // Met in each whole run of 2026-12-07 before 13:46 (the same server code: only the bench and the
    // browser tests changed between them), missed in that one's PostgreSQL part.
    figure:
      /^(tablet call 1 GET \/uuid\/\{id\}, 50-week programme: p99|GET \/api\/dashboard 10M vs 10k seen-video rows|GET \/api\/reports\/(flow|outcomes), 12 months.*)$/,
    why:
      'Met in the three whole runs before this one on 2026-12-07 (00:46, 03:42, 06:34 UTC) with the ' +
      'same server code (tablet p99 on PostgreSQL 8.5-19.7 ms; dashboard 10M vs 10k 0.81-1.29x; flow ' +
      '264-295 ms; outcomes 232-293 ms): a latency on this shared ' +
      '2-core virtual machine moves by a third between runs. Its CPU per request is the steadier figure.',
  },
  {
    figure: /^click to content, Reports \(Chromium, phone, 390 px\): p50 \/ p90 of 10$/,
    why:
      'At the edge, on both databases: after the first visit the screen waits for no request, loads no ' +
      'chunk and has no long frame (its row); its time is React and MUI X Charts drawing. p90 301-355 ms ' +
      'in the whole runs of 13:46 and 14:57 UTC on 2026-12-07, when every section drew its chart on every ' +
      'visit; 179-237 ms at 17:13 with a chart drawn only when its section nears the window (bench/' +
      'results.md, "sixth stop"). Next: fewer elements per chart (the videos report draws a bar per video).',
  },
  {
    figure: /^fresh tab at \/dashboard to its content, signed in, console already in the browser cache /,
    why:
      "Its time is the browser's own work once the figures have arrived (their request ends at about " +
      "210-310 ms, the row's median): running the console's modules (a Chromium CPU profile of the " +
      "tab: the contract's schemas, the date formats and MUI X Charts 27-45 ms each under the profiler" +
      "), then React's first render of the shell and the dashboard and their styles. Tried and kept " +
      '(bench/results.md, "seventh stop"): the session asked while the console\'s chunk loads, the ' +
      'figures asked as soon as the session is known, a loaded page drawn without suspending (React ' +
      'held it 300 ms behind a spinner), the idle preloading begun once the page has its data: 804 / ' +
      '921 → 464 / 502 ms at 1366 px. Not tried: fewer modules run before the first screen (the ' +
      'schemas built when first used).',
  },
  {
    figure: /^scale-out: /,
    why:
      'Two web instances, PostgreSQL and the load generator share 2 cores; one instance with PostgreSQL ' +
      'already keeps about 1.5 of them busy. A second instance cannot add 70 % on this machine.',
  },
  {
    figure: /^PGlite vs PostgreSQL, .*: CPU per request$/,
    why:
      `${PGLITE_ONE_THREAD}, where PostgreSQL answers from its own process in native code and the ` +
      "server reads the answer once. The rows' own profiles show where; see the PGlite rows above.",
  },
];

/** The reason a missed row is missed, or a note that it has none yet. */
export function whyMissed(row: { figure: string; conditions: string }): string {
  const storage = storageOf(row);
  const reason = MISSED_GOALS.find(
    (goal) => goal.figure.test(row.figure) && (goal.storage === undefined || goal.storage === storage),
  );
  return reason?.why ?? 'not explained yet: add its reason to bench/missed-goals.ts';
}
