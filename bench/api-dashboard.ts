import type { ApiEnvironment } from './lib/api-env.js';
import { WARM_UP_REQUESTS, getOk, timeSequential, warmUp } from './lib/http.js';
import { count, median, ms } from './lib/stats.js';

/** GET /api/dashboard with `seenVideos` rows in seen_videos; returns the median in ms. */
export async function measureDashboard(
  env: ApiEnvironment,
  participants: number,
  seenVideos: number,
): Promise<number> {
  return env.withServer(
    async (server, cpu) => {
      const url = `${server.url}/api/dashboard`;
      const medians: number[] = [];
      const p99s: number[] = [];
      let calls = 0;
      // As every other sequential figure: measured from the server's start, the dashboard's CPU was
      // the start-up's (WebAssembly compiled in the background, code not yet optimised), 10 ms a
      // request on PGlite where a warm server spends 3 (2026-12-07).
      await warmUp(() => getOk(url, env.cookie));
      // The kernel counts CPU time in 10 ms ticks: 50 requests of 2 ms would be a tenth of a second,
      // read to within 10 %; ten times as many, within 1 %, as tablet call 1 is measured.
      const perRound = env.sizes.requestsPerRound * 10;
      const measured = await cpu.measure(
        async () => {
          for (let round = 0; round < env.sizes.rounds; round += 1) {
            const timing = await timeSequential(
              perRound,
              () => ((calls += 1), getOk(url, env.cookie)),
              round === 0 ? 5 : 1,
            );
            medians.push(timing.median);
            p99s.push(timing.p99);
          }
        },
        () => calls,
      );
      const value = median(medians);
      env.add({
        figure: `GET /api/dashboard at ${count(seenVideos)} seen-video rows`,
        value: `${ms(value)} (p99 ${ms(median(p99s))})`,
        goal: '< 25 ms',
        met: value < 25,
        conditions: `${count(participants)} participants with programmes; after ${WARM_UP_REQUESTS} requests to warm up, median of ${env.sizes.rounds} rounds of ${perRound} sequential requests`,
      });
      env.addCpu(
        `GET /api/dashboard at ${count(seenVideos)} seen-video rows`,
        measured,
        `${count(participants)} participants, after ${WARM_UP_REQUESTS} requests to warm up, sequential requests`,
      );
      return value;
    },
    `dashboard-${count(seenVideos)}`,
  );
}

/** Whether the dashboard stayed flat from the smallest to the largest seen_videos size. */
export function reportDashboardGrowth(env: ApiEnvironment, bySize: Map<number, number>): void {
  const sizes = [...bySize.keys()].sort((a, b) => a - b);
  const smallest = bySize.get(sizes[0]!)!;
  const largest = bySize.get(sizes[sizes.length - 1]!)!;
  const growth = largest / smallest;
  env.add({
    figure: `GET /api/dashboard ${count(sizes[sizes.length - 1]!)} vs ${count(sizes[0]!)} seen-video rows`,
    value: `${growth.toFixed(2)}x`,
    goal: '≤ 1.3x (flat)',
    met: growth <= 1.3,
    conditions: 'ratio of the medians above',
  });
}
