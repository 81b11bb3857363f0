import { afterAll, beforeAll, describe, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { waitUntil } from '../../test/wait.js';

// Workers that look for jobs once an hour: a job sent in this process runs in time only if `notify`
// wakes its worker (pg-boss wakes a worker by its id; the queue's name alone did nothing, and each
// job waited for the next poll: a thumbnail took a second longer to appear).
let t: TestApp;
const handled: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  await t.ctx.jobs.define<{ word: string }>({
    name: 'test-notified',
    async handler(jobs) {
      for (const job of jobs) handled.push(job.data.word);
    },
  });
  await t.ctx.jobs.startWorkers({ workersPerQueue: 2, pollingIntervalSeconds: 3600 });
});
afterAll(() => t.close());

describe('job queue: notify', () => {
  it('wakes an idle worker at once, job after job, instead of at its next poll', async () => {
    // The first job may be found by the workers' first look at start; each later one is sent while
    // both workers wait out their hour, so only the notify can have started it.
    for (const word of ['first', 'second', 'third']) {
      await t.ctx.jobs.send('test-notified', { word });
      t.ctx.jobs.notify('test-notified');
      await waitUntil(() => handled.includes(word), `the ${word} job to run`);
    }
  });
});
