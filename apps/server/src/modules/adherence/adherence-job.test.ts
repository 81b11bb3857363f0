import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/rows.js';
import { adherenceRuns } from '../../db/schema.js';
import { daysBehindOf } from '../../../test/factories.js';
import { ManualClock, createTestApp, type TestApp } from '../../../test/harness.js';
import { waitUntil } from '../../../test/wait.js';
import { makeEnrolledParticipant } from '../../../test/programme-factories.js';
import { ADHERENCE_CHECK_JOB, runAdherenceCheck } from './check.js';

const clock = new ManualClock(new Date('2025-01-15T06:15:00Z'));
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    clock,
    workers: true,
    env: { ADHERENCE_CHECK_CRON: '15 7 * * *', ADHERENCE_CHECK_TZ: 'Europe/Paris' },
  });
});
afterAll(() => t.close());

/** Waits for a state (test/wait.ts), with a deadline that only turns a hang into a failure. */
const until = <T>(probe: () => Promise<T | undefined>) => waitUntil(probe, 'the adherence check');

describe('the adherence check job', () => {
  it('is scheduled with the configured cron expression and time zone', async () => {
    const rows = rowsOf<{
      name: string;
      cron: string;
      timezone: string | null;
      options: { tz?: string } | null;
    }>(
      await t.ctx.database.db.execute(
        sql`select name, cron, timezone, options from pgboss.schedule order by name`,
      ),
    );
    const schedule = rows.find((r) => r.name === ADHERENCE_CHECK_JOB);
    expect(schedule?.cron).toBe('15 7 * * *');
    expect(schedule?.timezone ?? schedule?.options?.tz).toBe('Europe/Paris');
  });

  it('runs through the durable queue for the day of the programme time zone', async () => {
    // 06:15 UTC on 15 January is 07:15 in Paris: still the 15th.
    const { participant } = await makeEnrolledParticipant(t.ctx.database.db, {
      weeks: 1,
      perWeek: 7,
      started_date: '2025-01-12',
    });
    await t.ctx.jobs.send(ADHERENCE_CHECK_JOB, {});
    t.ctx.jobs.notify(ADHERENCE_CHECK_JOB);
    const run = await until(async () => {
      const [row] = await t.ctx.database.db
        .select()
        .from(adherenceRuns)
        .where(eq(adherenceRuns.run_date, '2025-01-15'));
      return row?.finished_at ? row : undefined;
    });
    expect(run.participants_checked).toBe(1);
    if (t.ctx.database.kind === 'pglite') {
      // No autovacuum in embedded mode: the daily job vacuums and analyses after the check.
      const vacuumed = await until(async () => {
        const [row] = rowsOf<{ last_vacuum: unknown; last_analyze: unknown }>(
          await t.ctx.database.db.execute(
            sql`select last_vacuum, last_analyze from pg_stat_user_tables where relname = 'participants'`,
          ),
        );
        return row?.last_vacuum && row.last_analyze ? row : undefined;
      });
      expect(Number.isNaN(new Date(String(vacuumed.last_vacuum)).getTime())).toBe(false);
    }
    // Day 3 of a 7-a-week set: four unlocked, none seen.
    expect(await daysBehindOf(t.ctx.database.db, participant.participant_id)).toBe(4);
  });

  it('lets only one of two simultaneous runs do the day', async () => {
    clock.set(new Date('2025-01-16T06:15:00Z'));
    const results = await Promise.all([runAdherenceCheck(t.ctx), runAdherenceCheck(t.ctx)]);
    expect(results.map((r) => r.ran).sort()).toEqual([false, true]);
    expect(results.every((r) => r.run_date === '2025-01-16')).toBe(true);
  });
});
