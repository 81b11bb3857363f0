import { LONG_SET, deviceUuid, followsLongSet, hasDevice } from './lib/data.js';
import type { ApiEnvironment } from './lib/api-env.js';
import { WARM_UP_REQUESTS, getOk, timeSequential, warmUp } from './lib/http.js';
import { count, median, ms } from './lib/stats.js';

/**
 * Tablet app call 1 (GET /uuid/{id}): a new token, the participant, and the 350 videos of the
 * 50-week programme, for tablets spread over the whole participant range.
 */
export async function measureTabletCall(env: ApiEnvironment, participants: number): Promise<void> {
  const tablets: string[] = [];
  for (
    let i = 1;
    i <= participants && tablets.length < 500;
    i += Math.max(1, Math.floor(participants / 1000))
  ) {
    if (hasDevice(i) && followsLongSet(i)) tablets.push(deviceUuid(i));
  }
  await env.withServer(async (server, cpu) => {
    const medians: number[] = [];
    const p99s: number[] = [];
    let next = 0;
    const call = () => getOk(`${server.url}/uuid/${tablets[next++ % tablets.length]}`);
    await warmUp(call);
    const warmedUp = next;
    const calls = env.sizes.requestsPerRound * 10;
    const measured = await cpu.measure(
      async () => {
        for (let round = 0; round < env.sizes.rounds; round += 1) {
          const timing = await timeSequential(calls, call, 0);
          medians.push(timing.median);
          p99s.push(timing.p99);
        }
      },
      () => next - warmedUp,
    );
    const p99 = median(p99s);
    env.add({
      figure: `tablet call 1 GET /uuid/{id}, ${LONG_SET.weeks}-week programme: p99`,
      value: `${ms(p99)} (p50 ${ms(median(medians))})`,
      goal: '< 20 ms',
      met: p99 < 20,
      conditions: `${count(participants)} participants, ${LONG_SET.weeks * LONG_SET.perWeek} videos in the answer, ${tablets.length} tablets in turn; after ${WARM_UP_REQUESTS} calls to warm up, median of ${env.sizes.rounds} rounds of ${env.sizes.requestsPerRound * 10} sequential calls`,
    });
    env.addCpu(
      `tablet call 1 GET /uuid/{id}, ${LONG_SET.weeks}-week programme`,
      measured,
      `${count(participants)} participants, ${WARM_UP_REQUESTS} calls to warm up, then ${env.sizes.rounds} x ${env.sizes.requestsPerRound * 10} sequential calls`,
      3,
    );
  }, 'tablet-call-1');
}
