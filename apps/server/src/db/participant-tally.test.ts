import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, asInstance } from '../../test/harness.js';
import { insertParticipants, setDaysBehind } from '../../test/factories.js';
import { libraryEditor } from '../../test/programme-factories.js';
import {
  makeEnrolledParticipant,
  makeProgress,
  makeVideoSet,
  makeVideos,
} from '../../test/programme-factories.js';
import { runAdherenceCheck } from '../modules/adherence/check.js';
import { VideoSetService } from '../modules/videos/library/video-set-service.js';
import { foldParticipantTally, participantCounts, type ParticipantCounts } from './participant-tally.js';
import { rowsOf } from './rows.js';
import { participants, participantTally } from './schema.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** The counts the tally stands for, counted the slow way. */
async function counted(): Promise<ParticipantCounts> {
  const rows = rowsOf<{ adherence: 0 | 1 | 2; with_programme: boolean; n: number }>(
    await t.ctx.database.db.execute(sql`
      select a.adherence, pp.participant_id is not null as with_programme, count(*)::int as n
      from participants p
      join participant_adherence a on a.participant_id = p.participant_id
      left join fitness_participation_progress pp on pp.participant_id = p.participant_id
      group by 1, 2`),
  );
  const counts: ParticipantCounts = { all: [0, 0, 0], withProgramme: [0, 0, 0] };
  for (const row of rows) {
    counts.all[row.adherence] += row.n;
    if (row.with_programme) counts.withProgramme[row.adherence] += row.n;
  }
  return counts;
}

async function expectInStep(step: string) {
  expect(await participantCounts(t.ctx.database.db), step).toEqual(await counted());
}

describe('the participant tally', () => {
  it('follows inserts, class changes, programmes, deletions, set removal and the daily check', async () => {
    await expectInStep('empty');
    const ids = await insertParticipants(
      t.ctx,
      [0, 0, 1, 2, 3, 9, 0, 5].map((days_behind) => ({ days_behind })),
    );
    await expectInStep('participants added in one statement');

    const set = await makeVideoSet(t.ctx.database.db, { weeks: 2, perWeek: 3 });
    await makeVideos(t.ctx.database.db, set);
    for (const id of ids.slice(0, 5))
      await makeProgress(t.ctx.database.db, id, set.fitness_video_set_id, { started_date: '2025-01-01' });
    await expectInStep('programmes chosen');

    await setDaysBehind(t.ctx.database.db, ids.slice(0, 3), 4);
    await setDaysBehind(t.ctx.database.db, ids[6]!, 1);
    await setDaysBehind(t.ctx.database.db, ids[3]!, 3);
    await expectInStep('classes changed (and one unchanged)');

    await t.ctx.database.db
      .delete(participants)
      .where(inArray(participants.participant_id, [ids[0]!, ids[7]!]));
    await expectInStep('a participant with a programme and one without deleted');

    const other = await makeEnrolledParticipant(t.ctx.database.db, {
      weeks: 1,
      perWeek: 7,
      started_date: '2025-01-01',
    });
    await setDaysBehind(t.ctx.database.db, other.participant.participant_id, 2);
    await expectInStep('another enrolled and behind');

    await asInstance(async () =>
      new VideoSetService(t.ctx).remove(set.fitness_video_set_id, await libraryEditor(t.ctx.database.db)),
    );
    await expectInStep("a set removed with its participants' progress");

    await runAdherenceCheck(t.ctx, { today: '2025-01-09' });
    await expectInStep('after the daily check');

    await foldParticipantTally(t.ctx.database.db);
    await expectInStep('after folding');
    const rows = await t.ctx.database.db.select().from(participantTally);
    expect(rows.length).toBeLessThanOrEqual(6);
    expect(rows.every((r) => r.delta !== 0)).toBe(true);
  });
});
