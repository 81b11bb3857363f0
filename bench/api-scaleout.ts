import os from 'node:os';
import type { ApiEnvironment } from './lib/api-env.js';
import { perRequestMs } from './lib/cpu.js';
import { load, type LoadResult } from './lib/http.js';
import { count, median, ms, perSecond, ratio } from './lib/stats.js';

/** The grid page of the load figure (api-participants.ts): one adherence state, by surname. */
const GRID_QUERY = 'state=behind&sort=last_name&order=asc&perPage=100';

interface Reading {
  requestsPerSecond: number;
  p99: number;
  cpuPerRequest: number;
}

/**
 * Scale-out: two web instances against one, on the same PostgreSQL and the same machine. Both
 * processes run throughout; "one instance" sends every connection to the first, "two" splits them
 * evenly, as a load balancer would. The two are measured in alternate rounds (one, two, one, two,
 * ...), so a change in the machine's other load falls on both rather than on whichever ran second
 * (measured one after the other, two readings on this shared machine gave 2.49x and 0.52x).
 */
export async function measureScaleOut(env: ApiEnvironment, participants: number): Promise<void> {
  const loadAtStart = os.loadavg()[0]!;
  const { one, two } = await env.withWebInstances(2, async (servers, cpu) => {
    const urls = servers.map((s) => `${s.url}/api/participant?${GRID_QUERY}`);
    const connections = env.sizes.connections;
    const half = Math.max(1, Math.round(connections / 2));
    await Promise.all(
      urls.map((url) => load(url, { cookie: env.cookie, connections: half, seconds: 2, warmUp: true })),
    );
    const run = async (targets: string[], perTarget: number): Promise<Reading> => {
      const measured = await cpu.measure(
        () =>
          Promise.all(
            targets.map((url) =>
              load(url, { cookie: env.cookie, connections: perTarget, seconds: env.sizes.loadSeconds }),
            ),
          ),
        (results: LoadResult[]) => results.reduce((sum, r) => sum + r.requests, 0),
      );
      return {
        requestsPerSecond: measured.result.reduce((sum, r) => sum + r.requestsPerSecond, 0),
        p99: Math.max(...measured.result.map((r) => r.p99)),
        cpuPerRequest: perRequestMs(measured).total,
      };
    };
    const readings = { one: [] as Reading[], two: [] as Reading[] };
    for (let round = 0; round < env.sizes.loadRounds; round += 1) {
      readings.one.push(await run([urls[0]!], connections));
      readings.two.push(await run(urls, half));
    }
    return readings;
  });
  const summary = (readings: Reading[]) => ({
    requestsPerSecond: median(readings.map((r) => r.requestsPerSecond)),
    p99: median(readings.map((r) => r.p99)),
    cpuPerRequest: median(readings.map((r) => r.cpuPerRequest)),
  });
  const a = summary(one);
  const b = summary(two);
  const gain = b.requestsPerSecond / a.requestsPerSecond;
  const perRound = one.map((r, i) => ratio(two[i]!.requestsPerSecond / r.requestsPerSecond)).join(', ');
  env.add({
    figure: `scale-out: GET /api/participant page of 100 from ${count(participants)}, 2 web instances vs 1`,
    value: `${ratio(gain)} (${perSecond(b.requestsPerSecond)} vs ${perSecond(a.requestsPerSecond)}; p99 ${ms(b.p99)} vs ${ms(a.p99)}; CPU per request ${ms(b.cpuPerRequest)} vs ${ms(a.cpuPerRequest)})`,
    goal: '≥ 1.7x',
    met: gain >= 1.7,
    conditions: `${count(participants)} participants, state behind, sort last_name, full access (audited); two --role web processes, ${env.sizes.connections} autocannon connections all to one of them or split evenly, in ${env.sizes.loadRounds} alternate rounds of ${env.sizes.loadSeconds} s each (medians; ratio per round ${perRound}); servers, PostgreSQL and the load generator share the machine's ${os.cpus().length} cores (load average ${loadAtStart.toFixed(1)} at start: on a busy machine two processes also get two shares of the scheduler)`,
  });
}
