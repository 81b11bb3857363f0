import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@pathway/contract';
import {
  adherenceRuns,
  participantAdherence,
  participants,
  participationProgress,
  pushOutbox,
  seenVideos,
} from '../../db/schema.js';
import { daysBehindOf } from '../../../test/factories.js';
import { ManualClock, createTestApp, type TestApp } from '../../../test/harness.js';
import {
  makeDevice,
  makeParticipant,
  makeProgress,
  makeVideoSet,
  makeVideos,
} from '../../../test/programme-factories.js';
import { runAdherenceCheck } from './check.js';

// 06:00 in London (BST) on 10 June 2025.
const clock = new ManualClock(new Date('2025-06-10T05:00:00Z'));
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());

type Video = Awaited<ReturnType<typeof makeVideos>>[number];

async function enrol(
  set: Awaited<ReturnType<typeof makeVideoSet>>,
  setVideos: Video[],
  options: {
    started: string;
    position?: [number, number];
    seen?: number[];
    device?: boolean;
    missedAtCheck?: number;
  },
) {
  const device = options.device === false ? null : await makeDevice(t.ctx.database.db);
  const participant = await makeParticipant(t.ctx.database.db, {
    deviceId: device?.authorized_device_id ?? null,
  });
  const progress = await makeProgress(
    t.ctx.database.db,
    participant.participant_id,
    set.fitness_video_set_id,
    {
      started_date: options.started,
      current_week: options.position?.[0],
      current_day: options.position?.[1],
    },
  );
  if (options.missedAtCheck) {
    await t.ctx.database.db
      .update(participationProgress)
      .set({ missed_at_check: options.missedAtCheck })
      .where(eq(participationProgress.participant_id, participant.participant_id));
  }
  for (const index of options.seen ?? []) {
    const video = setVideos[index - 1]!;
    await t.ctx.database.db.insert(seenVideos).values({
      participant_id: participant.participant_id,
      video_id: video.video_id,
      fitness_video_set_id: set.fitness_video_set_id,
      week_number: video.week_number,
      day_number: video.day_number,
    });
  }
  return { participant, progress, id: participant.participant_id };
}

async function stateOf(id: number) {
  const [progress] = await t.ctx.database.db
    .select()
    .from(participationProgress)
    .where(eq(participationProgress.participant_id, id));
  const pushes = await t.ctx.database.db
    .select()
    .from(pushOutbox)
    .where(eq(pushOutbox.participant_id, id))
    .orderBy(asc(pushOutbox.push_id));
  return {
    days_behind: await daysBehindOf(t.ctx.database.db, id),
    percentage: progress?.percentage_progress,
    position: progress ? [progress.current_week, progress.current_day] : null,
    pushes: pushes.map((x) => `${x.kind}:${x.dedupe_key}`),
  };
}

async function snapshot() {
  return {
    participants: await t.ctx.database.db
      .select()
      .from(participants)
      .orderBy(asc(participants.participant_id)),
    adherence: await t.ctx.database.db
      .select()
      .from(participantAdherence)
      .orderBy(asc(participantAdherence.participant_id)),
    progress: await t.ctx.database.db
      .select()
      .from(participationProgress)
      .orderBy(asc(participationProgress.participant_id)),
    outbox: await t.ctx.database.db.select().from(pushOutbox).orderBy(asc(pushOutbox.push_id)),
    runs: await t.ctx.database.db.select().from(adherenceRuns).orderBy(asc(adherenceRuns.run_date)),
  };
}

describe('the daily adherence check', () => {
  let cast: Record<'advancing' | 'slightly' | 'behind' | 'noDevice' | 'finished' | 'noProgramme', number>;

  beforeAll(async () => {
    // Two weeks of three videos: six exercise days.
    const set = await makeVideoSet(t.ctx.database.db, { weeks: 2, perWeek: 3 });
    const v = await makeVideos(t.ctx.database.db, set);
    cast = {
      // Day 1: watched day 0's video, so day 1's unlocks and they move on to it.
      advancing: (await enrol(set, v, { started: '2025-06-09', seen: [1] })).id,
      // Day 2: watched only the first video; day 1's went by unseen.
      slightly: (await enrol(set, v, { started: '2025-06-08', position: [1, 2], seen: [1] })).id,
      // Day 21: nothing watched; already reminded of all six at the last check.
      behind: (await enrol(set, v, { started: '2025-05-20', missedAtCheck: 6 })).id,
      noDevice: (
        await enrol(set, v, { started: '2025-06-05', position: [1, 3], seen: [1, 2, 3], device: false })
      ).id,
      finished: (await enrol(set, v, { started: '2025-04-01', position: [2, 3], seen: [1, 2, 3, 4, 5, 6] }))
        .id,
      noProgramme: (await makeParticipant(t.ctx.database.db)).participant_id,
    };
  });

  it('applies the programme rules to everyone and queues the two reminders', async () => {
    const result = await runAdherenceCheck(t.ctx);
    expect(result).toMatchObject({
      run_date: '2025-06-10',
      ran: true,
      participants_checked: 5,
      positions_advanced: 1,
      new_video_reminders: 1,
      missed_video_reminders: 1,
    });
    expect(await stateOf(cast.advancing)).toEqual({
      days_behind: 1,
      percentage: 16,
      position: [1, 2],
      pushes: [`new-video:new-video:${cast.advancing}:2025-06-10`],
    });
    expect(await stateOf(cast.slightly)).toEqual({
      days_behind: 2,
      percentage: 16,
      position: [1, 2],
      pushes: [`missed-video:missed-video:${cast.slightly}:2025-06-10`],
    });
    expect(await stateOf(cast.behind)).toEqual({
      days_behind: 6,
      percentage: 0,
      position: [1, 1],
      pushes: [],
    });
    expect(await stateOf(cast.noDevice)).toEqual({
      days_behind: 0,
      percentage: 50,
      position: [1, 3],
      pushes: [],
    });
    expect(await stateOf(cast.finished)).toEqual({
      days_behind: 0,
      percentage: 100,
      position: [2, 3],
      pushes: [],
    });
    expect(await stateOf(cast.noProgramme)).toEqual({
      days_behind: 0,
      percentage: undefined,
      position: null,
      pushes: [],
    });

    const [reminder] = await t.ctx.database.db
      .select()
      .from(pushOutbox)
      .where(eq(pushOutbox.participant_id, cast.slightly));
    expect(reminder).toMatchObject({
      title: messages.reminders.missedTitle,
      body: messages.reminders.missedBody,
      status: 'queued',
    });
    expect(await t.ctx.jobs.boss.getQueueSize('push-deliver')).toBeGreaterThanOrEqual(1);
  });

  it('changes nothing more and sends nothing twice when run again the same day', async () => {
    const before = await snapshot();
    clock.advance(3 * 60 * 60_000);
    const again = await runAdherenceCheck(t.ctx);
    expect(again).toMatchObject({
      ran: false,
      run_date: '2025-06-10',
      positions_advanced: 0,
      new_video_reminders: 0,
      missed_video_reminders: 0,
    });
    expect(await snapshot()).toEqual(before);
  });

  it('the next morning reminds whoever let another day go by', async () => {
    clock.set(new Date('2025-06-11T05:00:00Z'));
    const result = await runAdherenceCheck(t.ctx);
    expect(result).toMatchObject({
      ran: true,
      run_date: '2025-06-11',
      positions_advanced: 0,
      new_video_reminders: 0,
    });
    // 'advancing' did not watch day 1's video; 'slightly' missed another; 'behind' has nothing new to miss.
    expect((await stateOf(cast.advancing)).pushes).toContain(
      `missed-video:missed-video:${cast.advancing}:2025-06-11`,
    );
    expect((await stateOf(cast.slightly)).pushes).toContain(
      `missed-video:missed-video:${cast.slightly}:2025-06-11`,
    );
    expect((await stateOf(cast.behind)).pushes).toEqual([]);
    expect(result.missed_video_reminders).toBe(2);
  });

  it('a crash half-way loses nothing and repeats nothing', async () => {
    clock.set(new Date('2025-06-12T05:00:00Z'));
    const before = await snapshot();
    // The database fails the run while it writes reminders, after days_behind and positions were updated.
    await t.ctx.database.db.execute(sql`
      create function fail_reminders() returns trigger language plpgsql as $$
      begin raise exception 'simulated crash while writing reminders'; end $$`);
    await t.ctx.database.db.execute(sql`
      create trigger fail_reminders before insert on push_outbox for each row execute function fail_reminders()`);
    await expect(runAdherenceCheck(t.ctx)).rejects.toThrow();
    expect(await snapshot()).toEqual(before);

    await t.ctx.database.db.execute(sql`drop trigger fail_reminders on push_outbox`);
    await t.ctx.database.db.execute(sql`drop function fail_reminders()`);
    const retried = await runAdherenceCheck(t.ctx);
    expect(retried).toMatchObject({ ran: true, run_date: '2025-06-12' });
    expect(retried.missed_video_reminders).toBeGreaterThan(0);
    const reminders = await t.ctx.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(pushOutbox)
      .where(sql`${pushOutbox.dedupe_key} like ${'%:2025-06-12'}`);
    expect(reminders[0]!.n).toBe(retried.missed_video_reminders + retried.new_video_reminders);
    expect((await runAdherenceCheck(t.ctx)).ran).toBe(false);
  });
});
