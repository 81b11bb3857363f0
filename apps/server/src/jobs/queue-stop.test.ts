import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { waitUntil } from '../../test/wait.js';

let t: TestApp | undefined;
afterAll(() => t?.close());

describe('stopping the job queue', () => {
  it('returns only once pg-boss has written what became of a job that outlasted its wait', async () => {
    t = await createTestApp();
    let release: () => void = () => {};
    let started = false;
    await t.ctx.jobs.define({
      name: 'test-outlasting',
      async handler() {
        started = true;
        await new Promise<void>((resolve) => (release = resolve));
      },
    });
    await t.ctx.jobs.startWorkers({ pollingIntervalSeconds: 1 });
    await t.ctx.jobs.send('test-outlasting', {});
    t.ctx.jobs.notify('test-outlasting');
    await waitUntil(() => started, 'the job to start');

    // pg-boss waits for running jobs for a second at least, then fails them for a retry and stops.
    const bossStopped = new Promise((resolve) => t!.ctx.jobs.boss.once('stopped', resolve));
    const stopping = t.ctx.jobs.stop(1_000);
    await bossStopped;
    // Only then does the job end: pg-boss then writes its completion, unawaited by itself.
    const statements: string[] = [];
    const answered: string[] = [];
    const db = t.ctx.jobs.boss.getDb();
    const executeSql = db.executeSql.bind(db);
    db.executeSql = (text, values) => {
      statements.push(text);
      return executeSql(text, values).finally(() => answered.push(text));
    };
    release();
    await stopping;

    // The stop waited for the completion's answer: nothing of the queue is left on its way to a
    // database about to close.
    expect(statements.length).toBeGreaterThan(0);
    expect(answered).toEqual(statements);
  });
});
