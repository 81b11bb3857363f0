import os from 'node:os';
import type { ApiEnvironment } from './lib/api-env.js';
import { perRequestMs } from './lib/cpu.js';
import { load, type LoadResult } from './lib/http.js';
import { count, median, ms, perSecond, ratio } from './lib/stats.js';

/** The grid page of the load figure (api-participants.ts): one adherence state, by surname. */
const GRID_QUERY = 'state=behind&sort=last_name&order=asc&perPage=100';

/**
 * Throughput of the grid page from `instances` web processes sharing one PostgreSQL, the clients
 * split evenly between them as a load balancer would; the requests of each round are summed.
 */
async function throughputWith(
  env: ApiEnvironment,
  instances: number,
): Promise<{ requestsPerSecond: number; p99: number; cpuPerRequest: number; requests: number }> {
  return env.withWebInstances(instances, async (servers, cpu) => {
    const connections = Math.max(1, Math.round(env.sizes.connections / instances));
    const urls = servers.map((s) => `${s.url}/api/participant?${GRID_QUERY}`);
    await Promise.all(
      urls.map((url) => load(url, { cookie: env.cookie, connections, seconds: 2, warmUp: true })),
    );
    const measured = await cpu.measure(
      async () => {
        const rounds: LoadResult[][] = [];
        for (let round = 0; round < env.sizes.loadRounds; round += 1) {
          rounds.push(
            await Promise.all(
              urls.map((url) =>
                load(url, { cookie: env.cookie, connections, seconds: env.sizes.loadSeconds }),
              ),
            ),
          );
        }
        return rounds;
      },
      (rounds) => rounds.flat().reduce((sum, r) => sum + r.requests, 0),
    );
    return {
      requestsPerSecond: median(
        measured.result.map((r) => r.reduce((sum, one) => sum + one.requestsPerSecond, 0)),
      ),
      p99: median(measured.result.map((r) => Math.max(...r.map((one) => one.p99)))),
      cpuPerRequest: perRequestMs(measured).total,
      requests: measured.requests,
    };
  });
}

/** Scale-out: two web instances against one, on the same PostgreSQL and the same machine. */
export async function measureScaleOut(env: ApiEnvironment, participants: number): Promise<void> {
  const loadAtStart = os.loadavg()[0]!;
  const one = await throughputWith(env, 1);
  const two = await throughputWith(env, 2);
  const gain = two.requestsPerSecond / one.requestsPerSecond;
  env.add({
    figure: `scale-out: GET /api/participant page of 100 from ${count(participants)}, 2 web instances vs 1`,
    value: `${ratio(gain)} (${perSecond(two.requestsPerSecond)} vs ${perSecond(one.requestsPerSecond)}; p99 ${ms(two.p99)} vs ${ms(one.p99)}; CPU per request ${ms(two.cpuPerRequest)} vs ${ms(one.cpuPerRequest)})`,
    goal: '≥ 1.7x',
    met: gain >= 1.7,
    conditions: `${count(participants)} participants, state behind, sort last_name, full access (audited); --role web processes, ${env.sizes.connections} autocannon connections split evenly between them, median of ${env.sizes.loadRounds} runs of ${env.sizes.loadSeconds} s; servers, PostgreSQL and the load generator share the machine's ${os.cpus().length} cores (load average ${loadAtStart.toFixed(1)} at start: on a busy machine two processes also get two shares of the scheduler)`,
  });
}
