import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { JobLeases } from './job-leases.js';

// Leases are PostgreSQL sessions' advisory locks; the embedded database has one process and needs none.
describe('job leases (PostgreSQL)', () => {
  const logger = pino({ level: 'silent' });
  const open: JobLeases[] = [];
  const worker = () => {
    const leases = new JobLeases({ connectionString: process.env.TEST_DATABASE_URL }, logger);
    open.push(leases);
    return leases;
  };
  afterAll(async () => {
    await Promise.all(open.map((l) => l.close()));
  });

  it('tells a job whose worker is alive from one whose worker died', async () => {
    const [running, abandoned, own] = [randomUUID(), randomUUID(), randomUUID()];
    const alive = worker();
    const dying = worker();
    const sweeper = worker();
    await alive.hold([running]);
    await dying.hold([abandoned]);
    await sweeper.hold([own]);
    expect(await sweeper.orphaned([running, abandoned, own])).toEqual([]);

    await dying.close(); // its session ends, as when the process is killed
    expect(await sweeper.orphaned([running, abandoned, own])).toEqual([abandoned]);

    // Taken for orphaned while it still ran (say its lease connection dropped): the retry must not run beside it.
    await expect(sweeper.hold([running])).rejects.toThrow(/still running in another process/);

    await alive.release([running]); // finished: pg-boss has the job's state now
    expect(await sweeper.orphaned([running])).toEqual([running]);
  });
});
