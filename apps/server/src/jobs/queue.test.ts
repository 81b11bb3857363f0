import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { waitUntil } from '../../test/wait.js';
import { rowsOf } from '../db/rows.js';

let t: TestApp;
const handled: string[] = [];
let failuresLeft = 2;
/** The running 'test-held' job finishes when this is called. */
let releaseHeld: () => void = () => {};
let heldRunning = false;

beforeAll(async () => {
  t = await createTestApp();
  await t.ctx.jobs.define<{ word: string }>({
    name: 'test-echo',
    async handler(jobs) {
      for (const job of jobs) handled.push(job.data.word);
    },
  });
  await t.ctx.jobs.define<{ word: string }>({
    name: 'test-flaky',
    retryLimit: 3,
    retryDelay: 1,
    retryBackoff: false,
    async handler(jobs) {
      if (failuresLeft-- > 0) throw new Error('transient');
      for (const job of jobs) handled.push(job.data.word);
    },
  });
  await t.ctx.jobs.define<{ word: string }>({
    name: 'test-held',
    async handler(jobs) {
      heldRunning = true;
      await new Promise<void>((resolve) => (releaseHeld = resolve));
      for (const job of jobs) handled.push(job.data.word);
    },
  });
  // Retries are found by the workers' poll: once a second, as the harness asks.
  await t.ctx.jobs.startWorkers({ pollingIntervalSeconds: 1 });
});
afterAll(() => {
  releaseHeld(); // a failed expectation must not leave the job holding the queue's stop
  return t.close();
});

/** Waits for a state (test/wait.ts), with a deadline that only turns a hang into a failure. */
const until = (predicate: () => boolean) => waitUntil(predicate, 'the job queue');

describe('job queue', () => {
  it('runs a job sent to a defined queue', async () => {
    await t.ctx.jobs.send('test-echo', { word: 'hello' });
    t.ctx.jobs.notify('test-echo');
    await until(() => handled.includes('hello'));
  });

  it('enqueues inside a transaction only if it commits', async () => {
    await t.ctx.database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      await t.ctx.jobs.send('test-echo', { word: 'committed' }, { tx });
    });
    await t.ctx.database.db
      .transaction(async (tx) => {
        await t.ctx.jobs.send('test-echo', { word: 'rolled-back' }, { tx });
        throw new Error('abort');
      })
      .catch(() => {});
    t.ctx.jobs.notify('test-echo');
    await until(() => handled.includes('committed'));
    // Not a wait for something not to happen: the rolled-back job was never stored at all.
    const stored = await t.ctx.database.db.execute(sql`
      select count(*)::int as n from pgboss.job where data->>'word' = 'rolled-back'
      union all select count(*)::int from pgboss.archive where data->>'word' = 'rolled-back'`);
    expect(rowsOf<{ n: number }>(stored).map((r) => Number(r.n))).toEqual([0, 0]);
    expect(handled).not.toContain('rolled-back');
  });

  it('retries a failing job until it succeeds', async () => {
    await t.ctx.jobs.send('test-flaky', { word: 'eventually' });
    await until(() => handled.includes('eventually'));
    expect(failuresLeft).toBeLessThan(0);
  });

  it('queues a job with our own id once', async () => {
    const id = '8a1c8a2e-8f7e-4a57-9d57-3a7d36b4c001';
    const first = await t.ctx.jobs.send('test-echo', { word: 'once' }, { id });
    const second = await t.ctx.jobs.send('test-echo', { word: 'once' }, { id });
    expect(first).toBe(id);
    expect(second).toBeNull();
  });

  it('tells a job still to start from one running: pending covers both, waiting only the first', async () => {
    await t.ctx.jobs.send('test-held', { word: 'held' });
    t.ctx.jobs.notify('test-held');
    await until(() => heldRunning);
    expect(await t.ctx.jobs.isPending('test-held', { word: 'held' })).toBe(true);
    // A re-extract asked for while the last one is finishing must queue its own job.
    expect(await t.ctx.jobs.isWaiting('test-held', { word: 'held' })).toBe(false);
    releaseHeld();
    await until(() => handled.includes('held'));
    await waitUntil(
      async () => !(await t.ctx.jobs.isPending('test-held', { word: 'held' })),
      'the held job to be marked done',
    );
    expect(await t.ctx.jobs.isPending('test-held', { word: 'other' })).toBe(false);
  });

  it('refuses to send to a queue nobody defined', async () => {
    await expect(t.ctx.jobs.send('no-such-job', {})).rejects.toThrow('Unknown job no-such-job');
  });
});
