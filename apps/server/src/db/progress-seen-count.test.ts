import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, asInstance } from '../../test/harness.js';
import {
  libraryEditor,
  makeEnrolledParticipant,
  makeVideoSet,
  makeVideos,
} from '../../test/programme-factories.js';
import { ProgressService } from '../modules/progress/service.js';
import { recordViews } from '../modules/progress/views.js';
import { VideoService } from '../modules/videos/library/video-service.js';
import { rowsOf } from './rows.js';
import { participants, participationProgress, seenVideos } from './schema.js';

/**
 * fitness_participation_progress.seen_count is kept by triggers (migration 0005) so the daily
 * check reads one row per participant: after every kind of change it must equal the count of the
 * participant's views of their current set, counted the slow way.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function expectInStep(step: string) {
  const wrong = rowsOf<{ participant_id: number; seen_count: number; counted: number }>(
    await t.ctx.database.db.execute(sql`
      select p.participant_id, p.seen_count,
             (select count(*)::int from seen_videos sv
              where sv.participant_id = p.participant_id and sv.fitness_video_set_id = p.fitness_video_set_id) as counted
      from fitness_participation_progress p`),
  ).filter((row) => row.seen_count !== row.counted);
  expect(wrong, step).toEqual([]);
}

const seenCountOf = async (participantId: number) =>
  (
    await t.ctx.database.db
      .select({ n: participationProgress.seen_count })
      .from(participationProgress)
      .where(eq(participationProgress.participant_id, participantId))
  )[0]?.n;

describe("a programme's count of seen videos", () => {
  it('follows views, repeated views, new starts, set changes, video and participant deletion', async () => {
    const first = await makeEnrolledParticipant(t.ctx.database.db, {
      weeks: 2,
      perWeek: 3,
      started_date: '2025-01-01',
    });
    const second = await makeEnrolledParticipant(t.ctx.database.db, {
      set: first.set,
      started_date: '2025-01-01',
    });
    const videoIds = first.videos.map((v) => v.video_id);
    const setId = first.set.fitness_video_set_id;
    const firstId = first.participant.participant_id;
    const secondId = second.participant.participant_id;
    await expectInStep('enrolled, nothing seen');

    await asInstance(() => recordViews(t.ctx, firstId, setId, videoIds.slice(0, 3)));
    await asInstance(() => recordViews(t.ctx, secondId, setId, videoIds.slice(0, 2)));
    expect(await seenCountOf(firstId)).toBe(3);
    await expectInStep('views recorded');

    await asInstance(() => recordViews(t.ctx, firstId, setId, [videoIds[1]!, videoIds[1]!, videoIds[3]!]));
    expect(await seenCountOf(firstId)).toBe(4);
    await expectInStep('a video reported again counts once');

    // Views of another set are kept, but counted only while that set is the current one.
    const other = await makeVideoSet(t.ctx.database.db, { weeks: 1, perWeek: 2 });
    const otherVideos = await makeVideos(t.ctx.database.db, other);
    const progress = new ProgressService(t.ctx);
    await asInstance(() =>
      progress.update(first.progress.fitness_participation_progress_id, {
        fitness_video_set_id: other.fitness_video_set_id,
      }),
    );
    expect(await seenCountOf(firstId)).toBe(0);
    await asInstance(() =>
      recordViews(
        t.ctx,
        firstId,
        other.fitness_video_set_id,
        otherVideos.map((v) => v.video_id),
      ),
    );
    await expectInStep('moved to another set, views there');

    // Back to the first set: a fresh start there removes its earlier views.
    await asInstance(() =>
      progress.update(first.progress.fitness_participation_progress_id, { fitness_video_set_id: setId }),
    );
    expect(await seenCountOf(firstId)).toBe(0);
    await expectInStep('back on the first set, a fresh start');

    // A programme ended and chosen again counts what seen_videos holds for it at that moment.
    await t.ctx.database.db
      .delete(participationProgress)
      .where(eq(participationProgress.participant_id, secondId));
    await t.ctx.database.db.insert(seenVideos).values({
      participant_id: secondId,
      video_id: videoIds[4]!,
      fitness_video_set_id: setId,
      week_number: 2,
      day_number: 2,
    });
    await t.ctx.database.db.insert(participationProgress).values({
      participant_id: secondId,
      fitness_video_set_id: setId,
      started_date: '2025-01-01',
      last_seen_date: '2025-01-01',
    });
    expect(await seenCountOf(secondId)).toBe(3);
    await expectInStep('a programme written with views already there');

    // A video deleted from the set takes its views with it (second is not on its day).
    await asInstance(async () =>
      new VideoService(t.ctx).remove(videoIds[1]!, await libraryEditor(t.ctx.database.db)),
    );
    expect(await seenCountOf(secondId)).toBe(2);
    await expectInStep('a video deleted');

    // Rows changed in place (no code does this; a repair by hand might).
    await t.ctx.database.db
      .update(seenVideos)
      .set({ participant_id: firstId })
      .where(and(eq(seenVideos.participant_id, secondId), eq(seenVideos.video_id, videoIds[0]!)));
    await expectInStep('a view moved to another participant by hand');

    await t.ctx.database.db.delete(participants).where(eq(participants.participant_id, firstId));
    await expectInStep('a participant deleted');
  });
});
