import { eq, sql, type SQL } from 'drizzle-orm';
import { instanceScope, withScope } from '../../db/scope.js';
import { messages } from '@pathway/contract';
import type { AppContext } from '../../context.js';
import { maintainEmbeddedDatabase } from '../../db/client.js';
import { foldParticipantTally } from '../../db/participant-tally.js';
import { column, rowsReader } from '../../db/rows.js';
import { adherenceRuns } from '../../db/schema.js';
import type { JobDefinition } from '../../jobs/queue.js';
import { programmeToday } from '../../lib/programme-day.js';
import {
  PUSH_DELIVER_JOB,
  queuedPushesSql,
  requestPushDelivery,
  type PushKind,
  type QueuedPushSelect,
} from '../push/index.js';
import { flushLogs } from '../../logging.js';
import { foldFollowupTally } from '../followup/index.js';
import { advanceAssessmentDue } from '../outcomes/index.js';

export const ADHERENCE_CHECK_JOB = 'adherence-check';

export interface AdherenceCheckResult {
  run_date: string;
  /** False when the check had already run that day: nothing was changed or sent. */
  ran: boolean;
  participants_checked: number;
  positions_advanced: number;
  new_video_reminders: number;
  missed_video_reminders: number;
}

const readCheckFigures = rowsReader({
  checked: column.integer,
  advanced: column.integer,
  new_video: column.integer,
  missed_video: column.integer,
});

/**
 * The daily adherence check (DESIGN.md, programme rules): one transaction, a handful of
 * set-based statements whatever the number of participants. Claiming the day in adherence_runs
 * comes first, so a second run that day (or a concurrent one) does nothing; everything else
 * commits with it or not at all, so a crash half-way leaves nothing to undo and the retry does
 * the whole day once. Reminders carry a per-participant, per-day dedupe key, unique in the outbox,
 * as a second guard: a day's keys are written only in the transaction that claims the day (here, or
 * by the demo seed), so a duplicate would mean the claim failed, and it fails the check instead of
 * being skipped in silence (a plain insert: ON CONFLICT would descend the key's index once more
 * before each reminder, a large share of the check's CPU at scale; see bench/results.md).
 *
 * The arithmetic mirrors `dailyCheck` of packages/contract/src/programme.ts, and is tested
 * against it on random schedules.
 */
export function runAdherenceCheck(
  ctx: AppContext,
  options: { today?: string } = {},
): Promise<AdherenceCheckResult> {
  return withScope(instanceScope('daily adherence check'), () => checkEveryParticipant(ctx, options));
}

async function checkEveryParticipant(
  ctx: AppContext,
  options: { today?: string } = {},
): Promise<AdherenceCheckResult> {
  const today = options.today ?? programmeToday(ctx);
  const now = ctx.clock.now();
  const nowText = now.toISOString();

  const result = await ctx.db.transaction(async (tx) => {
    const [claimed] = await tx
      .insert(adherenceRuns)
      .values({ run_date: today, started_at: now })
      .onConflictDoNothing()
      .returning();
    if (!claimed) {
      const [previous] = await tx.select().from(adherenceRuns).where(eq(adherenceRuns.run_date, today));
      return {
        ran: false,
        figures: { checked: previous?.participants_checked ?? 0, advanced: 0, new_video: 0, missed_video: 0 },
      };
    }
    // Operators (and the crash tests) can see a check in progress: the day is claimed, not yet committed.
    // Written out now: log lines go out in batches, and on PGlite the check then holds the thread
    // until it ends, so the line would otherwise appear only with the "done" one (or never, after a crash).
    ctx.logger.info({ run_date: today }, 'daily adherence check started');
    flushLogs(ctx.logger);

    // PostgreSQL would compile the statement's expressions with LLVM first (its cost is far above
    // jit_above_cost), which costs more than the run that reads each row once saves (bench/results.md).
    await tx.execute(sql`set local jit = off`);
    // Its intermediate results (one row a participant, read several times) and the participants'
    // old and new rows the tally trigger is handed stay in memory instead of going through temporary
    // files, which the default 4 MB of work_mem would write and read back at scale.
    await tx.execute(sql`set local work_mem = '64MB'`);
    const [figures] = readCheckFigures(await tx.execute(adherenceCheckStatement(today, nowText)));
    // The day's counts per class for the Reports screen's adherence over time: one row
    // a day, written with the day's claim so a day has its counts exactly when it was checked.
    await tx.execute(adherenceHistoryStatement(today));
    // Assessments whose days of being due ended: the participant's next ones (assessment_due).
    await advanceAssessmentDue(tx, today);
    await tx
      .update(adherenceRuns)
      .set({ finished_at: ctx.clock.now(), participants_checked: figures!.checked })
      .where(eq(adherenceRuns.run_date, today));
    if (figures!.new_video + figures!.missed_video > 0) await requestPushDelivery(ctx, tx);
    return { ran: true, figures: figures! };
  });

  if (result.figures.new_video + result.figures.missed_video > 0) ctx.jobs.notify(PUSH_DELIVER_JOB);
  return {
    run_date: today,
    ran: result.ran,
    participants_checked: result.figures.checked,
    positions_advanced: result.figures.advanced,
    new_video_reminders: result.figures.new_video,
    missed_video_reminders: result.figures.missed_video,
  };
}

/**
 * The check's one statement for `today` (exported so its plan can be read: EXPLAIN ANALYZE in a
 * rolled-back transaction, see bench/adherence-plan.ts).
 */
export function adherenceCheckStatement(today: string, nowText: string): SQL {
  const r = messages.reminders;
  // A reminder of `kind` to each participant of `outcome` with a device for whom `when` holds, once
  // a day (its dedupe key).
  const reminder = (kind: PushKind, title: string, body: string, when: SQL): QueuedPushSelect => ({
    kind,
    values: {
      participant_id: sql`participant_id`,
      title: sql`${title}`,
      body: sql`${body}`,
      dedupe_key: sql`${sql.raw(`'${kind}:'`)} || participant_id || ':' || ${today}`,
      created_at: sql`${nowText}::timestamptz`,
    },
    from: sql`outcome where ${when} and has_device`,
  });
  return sql`
    with video_days as (
      -- Each video's day as an index of its set, beside the index of the set's video before it.
      select vv.fitness_video_set_id as set_id,
        (vv.week_number - 1) * s.videos_in_week + vv.day_number as idx,
        lag((vv.week_number - 1) * s.videos_in_week + vv.day_number) over (
          partition by vv.fitness_video_set_id
          order by (vv.week_number - 1) * s.videos_in_week + vv.day_number
        ) as previous_idx
      from videos vv
      join fitness_video_sets s on s.fitness_video_set_id = vv.fitness_video_set_id
    ), next_days as (
      -- For every day of every set, the next day after it that has a video (days without one are
      -- skipped, so the tablet's "today" is never empty): one row per day of the sets, joined to
      -- the participants by hash instead of searching the set's videos once per participant.
      select d.set_id, g.idx, d.idx as next_idx
      from video_days d
      cross join lateral generate_series(coalesce(d.previous_idx, 0), d.idx - 1) as g(idx)
    ), base as materialized (
      select
        p.fitness_participation_progress_id as progress_id,
        p.participant_id,
        p.fitness_video_set_id as set_id,
        pa.authorized_device_id is not null as has_device,
        s.videos_in_week as v,
        s.number_of_weeks * s.videos_in_week as total,
        p.started_date,
        greatest(0, ${today}::date - p.started_date) as dp,
        (p.current_week - 1) * s.videos_in_week + p.current_day as idx,
        p.missed_at_check as missed_before,
        -- Kept as views arrive (drizzle/0005_progress_seen_count_triggers.sql): no view is counted here.
        p.seen_count as seen,
        cv.video_id as current_video_id,
        current_view.seen is not null as current_seen
      from fitness_participation_progress p
      join fitness_video_sets s on s.fitness_video_set_id = p.fitness_video_set_id
      join participants pa on pa.participant_id = p.participant_id
      left join videos cv on cv.fitness_video_set_id = p.fitness_video_set_id
        and cv.week_number = p.current_week and cv.day_number = p.current_day
      -- Whether the current day's video is seen: one probe of seen_videos' unique key per
      -- participant (lateral, so it stays a probe rather than hashing every view).
      left join lateral (
        select true as seen from seen_videos sv
        where sv.participant_id = p.participant_id and sv.video_id = cv.video_id
        limit 1
      ) current_view on true
      -- A discharged participant is out of the check: no reminder, and their position and days
      -- behind stay as they were at the discharge.
      where pa.status = 'active'
    ), unlocked as materialized (
      select b.*,
        least(total, (dp / 7) * v + least(dp % 7 + 1, v)) as should,
        case when dp < 1 then 0
             else greatest(0, least(total, ((dp - 1) / 7) * v + least((dp - 1) % 7 + 1, v)) - seen)
        end as missed
      from base b
    ), stepped as materialized (
      -- The next day is looked up only for those whose current day is done.
      select u.*, case when u.current_seen then n.next_idx end as next_idx
      from unlocked u
      left join next_days n on n.set_id = u.set_id and n.idx = u.idx
    ), outcome as materialized (
      select st.*,
        greatest(0, should - seen) as days_behind,
        least(100, (100 * seen) / total) as pct,
        coalesce(next_idx <= should, false) as advanced,
        -- The day the missed videos reached 1 and 3 (missedCountReachedOn): the day after the
        -- (seen + 1)th, or (seen + 3)th, exercise day unlocked.
        case when missed >= 1 then started_date + (seen / v) * 7 + seen % v + 1 end as first_missed_on,
        case when missed >= 3 then started_date + ((seen + 2) / v) * 7 + (seen + 2) % v + 1 end as third_missed_on,
        -- Follow-up's "programme finished": the current day is the set's last day with a video,
        -- and it is seen (no next day to move to).
        current_seen and next_idx is null as finished
      from stepped st
    ), progress_update as (
      update fitness_participation_progress p set
        current_week = case when o.advanced then (o.next_idx - 1) / o.v + 1 else p.current_week end,
        current_day = case when o.advanced then (o.next_idx - 1) % o.v + 1 else p.current_day end,
        percentage_progress = o.pct,
        missed_at_check = o.missed,
        updated_at = ${nowText}::timestamptz
      from outcome o
      where p.fitness_participation_progress_id = o.progress_id
    ), adherence_update as (
      update participant_adherence a set days_behind = o.days_behind
      from outcome o
      where a.participant_id = o.participant_id and a.days_behind <> o.days_behind
    ), followup_update as (
      -- The follow-up worklist's facts (drizzle 0022, 0031): the days the missed videos reached 1
      -- and 3, and finished since the view of the last day. Written only where one moved: a
      -- participant who stays behind keeps the same days, so most rows are left as they are.
      update participant_followup f set
        first_missed_on = o.first_missed_on,
        third_missed_on = o.third_missed_on,
        -- The view's time is read only for those who just finished (the probe above reads the
        -- index alone).
        finished_at = case when o.finished then coalesce(f.finished_at, (
          select sv.created_at from seen_videos sv
          where sv.participant_id = o.participant_id and sv.video_id = o.current_video_id limit 1)) end
      from outcome o
      where f.participant_id = o.participant_id
        and (f.first_missed_on is distinct from o.first_missed_on
          or f.third_missed_on is distinct from o.third_missed_on
          or (f.finished_at is null) = o.finished)
    ), reminders as (
      ${queuedPushesSql([
        reminder('new-video', r.newVideoTitle, r.newVideoBody, sql`advanced`),
        reminder('missed-video', r.missedTitle, r.missedBody, sql`missed > missed_before`),
      ])}
      returning kind
    )
    select
      (select count(*)::int from outcome) as checked,
      (select count(*)::int from outcome where advanced) as advanced,
      (select count(*)::int from reminders where kind = 'new-video') as new_video,
      (select count(*)::int from reminders where kind = 'missed-video') as missed_video
  `;
}

/**
 * The adherence classes' counts after the day's check: active participants with a programme, as
 * the dashboard's progress cards count them (participant_adherence.adherence: 0 on track, 1
 * slightly behind, 2 behind). A day's claim in adherence_runs normally makes this once a day; if
 * an operator removed the claim and the check ran again, the day keeps the later counts.
 */
export function adherenceHistoryStatement(day: string): SQL {
  return sql`
    insert into adherence_history (day, site_id, on_track, slightly_behind, behind)
    select ${day}::date, s.site_id, coalesce(c.on_track, 0), coalesce(c.slightly_behind, 0), coalesce(c.behind, 0)
    from sites s
    left join (
      select pa.site_id,
        count(*) filter (where a.adherence = 0)::int as on_track,
        count(*) filter (where a.adherence = 1)::int as slightly_behind,
        count(*) filter (where a.adherence = 2)::int as behind
      from participant_adherence a
      join fitness_participation_progress p on p.participant_id = a.participant_id
      join participants pa on pa.participant_id = a.participant_id
      where pa.status = 'active'
      group by pa.site_id
    ) c on c.site_id = s.site_id
    on conflict (day, site_id) do update set
      on_track = excluded.on_track, slightly_behind = excluded.slightly_behind, behind = excluded.behind`;
}

/** Scheduled by cron (ADHERENCE_CHECK_CRON in ADHERENCE_CHECK_TZ, 06:00 Europe/London by default). */
export function adherenceCheckJob(ctx: AppContext): JobDefinition<never> {
  return {
    name: ADHERENCE_CHECK_JOB,
    policy: 'stately',
    retryLimit: 6,
    retryDelay: 60,
    retryBackoff: true,
    expireInSeconds: 30 * 60,
    schedule: { cron: ctx.config.adherenceCheck.cron, timeZone: ctx.config.adherenceCheck.timeZone },
    async handler() {
      const result = await runAdherenceCheck(ctx);
      ctx.logger.info(
        { ...result },
        result.ran ? 'daily adherence check done' : 'daily adherence check had already run today',
      );
      if (result.ran) await foldParticipantTally(ctx.db);
      // Follow-up's tally likewise.
      if (result.ran) await foldFollowupTally(ctx.db);
      if (result.ran && ctx.database.kind === 'pglite') {
        const started = performance.now();
        await maintainEmbeddedDatabase(ctx.database);
        ctx.logger.info(
          { ms: Math.round(performance.now() - started) },
          'embedded database vacuumed and analysed',
        );
      }
    },
  };
}
