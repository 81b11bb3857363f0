import { measureAdherenceCheck } from './api-adherence.js';
import { measureDashboard, reportDashboardGrowth } from './api-dashboard.js';
import { measureExport } from './api-export.js';
import { measureFollowup } from './api-followup.js';
import { measureImport } from './api-import.js';
import { measureGrid, measureGridLoad, measureGridSqlRatio } from './api-participants.js';
import { measureScaleOut } from './api-scaleout.js';
import { measureTabletCall } from './api-tablet.js';
// Reports (issue 33)
import { measureReports } from './api-reports.js';
import { measureOutcomes } from './api-outcomes.js';
import { ApiEnvironment } from './lib/api-env.js';
import { addParticipants, addSeenVideos, prepareProgramme } from './lib/data.js';
import type { Benchmark } from './lib/row.js';
import { count, seconds } from './lib/stats.js';

/** seen_videos rows when the daily check is measured (the largest size in a --quick run). */
const ADHERENCE_SEEN_VIDEOS = 1_000_000;

async function step<T>(label: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work();
  console.log(`  (${label}: ${seconds(performance.now() - started)})`);
  return result;
}

/** Whether a group of figures is asked for (`--api` in bench/run.ts; all by default). */
function wanted(
  group:
    | 'grid'
    | 'export'
    | 'import'
    | 'scaleout'
    | 'tablet'
    | 'dashboard'
    | 'adherence'
    | 'reports'
    | 'outcomes'
    | 'followup',
): boolean {
  const only = process.env.BENCH_API_FIGURES;
  return !only || only.split(',').includes(group);
}

/**
 * The API figures of one storage mode. Data grows in place (1k -> 10k -> 100k participants, then
 * more seen videos), and each size is measured against the real server before the next is added.
 */
const apiBenchmark: Benchmark = async ({ storage, postgresUrl }) => {
  const env = await ApiEnvironment.create(storage, postgresUrl);
  try {
    const { participants: sizes, seenVideos } = env.sizes;
    const largest = sizes[sizes.length - 1]!;
    await step('programme: 2 video sets, 470 videos', () => prepareProgramme(env.db));
    let loaded = 0;
    let firstFiltered = 0;
    for (const size of sizes) {
      await step(`load participants to ${count(size)}`, () => addParticipants(env.db, loaded, size));
      loaded = size;
      if (wanted('grid'))
        firstFiltered = (await step(`grid at ${count(size)}`, () => measureGrid(env, size))).firstFiltered;
    }
    if (wanted('export')) await step('whole-list export', () => measureExport(env, largest));
    if (wanted('grid')) {
      await step('grid SQL alone', () => measureGridSqlRatio(env, largest, firstFiltered));
      await step('grid under load', () => measureGridLoad(env, largest));
    }
    // Several web processes need a database server; the embedded one belongs to one process.
    if (wanted('scaleout') && storage === 'postgres')
      await step('scale-out, 2 web instances vs 1', () => measureScaleOut(env, largest));
    if (wanted('tablet')) await step('tablet call 1', () => measureTabletCall(env, largest));
    // Follow-up worklist (issue 31); its plan is printed for bench/results.md's hand-written section.
    if (wanted('followup')) {
      const plan = await step('follow-up worklist', () => measureFollowup(env, largest));
      console.log(`  follow-up worklist first page, EXPLAIN ANALYZE:\n${plan}`);
    }
    // Bulk referrals (issue 32): measured last, so that the participants they add (without a
    // programme) change no other figure.
    const importFigure = async () => {
      if (wanted('import')) await step('bulk-referral import', () => measureImport(env, largest));
    };
    const outcomesFigure = async () => {
      if (wanted('outcomes')) await step('outcomes', () => measureOutcomes(env, largest));
    };
    if (!wanted('dashboard') && !wanted('adherence') && !wanted('reports')) {
      await outcomesFigure();
      await importFigure();
      return env.rows;
    }

    const dashboard = new Map<number, number>();
    let seen = 0;
    for (const [index, size] of seenVideos.entries()) {
      await step(`load seen videos to ${count(size)}`, () => addSeenVideos(env.db, largest, seen, size));
      seen = size;
      if (wanted('dashboard'))
        dashboard.set(
          size,
          await step(`dashboard at ${count(size)}`, () => measureDashboard(env, largest, size)),
        );
      // The check reads every participant's views: measured at 1M rows (about ten views each).
      if (!wanted('adherence')) continue;
      if (
        size === ADHERENCE_SEEN_VIDEOS ||
        (index === seenVideos.length - 1 && !seenVideos.includes(ADHERENCE_SEEN_VIDEOS))
      ) {
        await step('adherence check', () => measureAdherenceCheck(env, largest, size));
        // The larger sizes are for the dashboard and the reports only: loading 10M rows is minutes of work.
        if (!wanted('dashboard') && !wanted('reports')) break;
      }
    }
    if (wanted('dashboard')) reportDashboardGrowth(env, dashboard);
    // Reports (issue 33): every report over 12 months at the largest sizes of the run.
    if (wanted('reports')) await step('reports', () => measureReports(env, largest, seen));
    // Outcomes: the report at the largest size, with a baseline and an end for most participants.
    await outcomesFigure();
    await importFigure();
    return env.rows;
  } finally {
    await env.dispose();
  }
};

export default apiBenchmark;
