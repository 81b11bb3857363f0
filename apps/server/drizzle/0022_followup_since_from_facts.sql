-- The follow-up worklist lists who needs a call, and says since when from the facts
-- (docs/follow-up.md; the columns came in 0021):
-- - behind (3 or more) and slightly behind (1-2) count days_missed, the days that went by without
--   their video, not days_behind, which counts today's video from midnight (so at the morning check
--   everyone on track, and everyone who started today, was slightly behind). Each is since the day
--   the missed videos reached 3 (third_missed_on) or 1 (first_missed_on), held as that day's
--   00:00 UTC so that no time zone is needed here; the worklist reads it in the programme's.
-- - reminders failing is since failing_began_at: the first failure in a row, the clearing of the
--   token, or the tablet's first call without one. A token the tablet never registered counts only
--   once the tablet has called: a tablet not yet switched on is "tablet silent" in its time, not
--   failing from the minute it is assigned.
-- - Where no fact is kept (rows of an instance upgraded into the worklist), a reason's start stays
--   the day the server first saw it, and the worklist says "at least since".
create or replace function participant_followup_derive() returns trigger language plpgsql as $$
declare
  was_behind timestamptz;
  was_slightly timestamptz;
  was_failing timestamptz;
begin
  if tg_op = 'UPDATE' then
    was_behind := old.behind_since;
    was_slightly := old.slightly_since;
    was_failing := old.failing_since;
    -- The tablet's first call since its assignment, and it has no push token.
    if new.token_empty and new.failing_began_at is null
      and new.tablet_called_at >= new.device_assigned_at
      and (old.tablet_called_at is null or old.tablet_called_at < new.device_assigned_at) then
      new.failing_began_at := new.tablet_called_at;
    end if;
  end if;
  new.behind_since := case when new.active and new.has_programme and new.days_missed >= 3
    then coalesce(new.third_missed_on::timestamp at time zone 'UTC', was_behind, date_trunc('day', now(), 'UTC')) end;
  new.slightly_since := case when new.active and new.has_programme and new.days_missed between 1 and 2
    then coalesce(new.first_missed_on::timestamp at time zone 'UTC', was_slightly, date_trunc('day', now(), 'UTC')) end;
  new.silent_from := case when new.active and new.has_device and new.has_programme
    then greatest(new.tablet_called_at, new.device_assigned_at) end;
  new.failing_since := case when new.active and new.has_device and (new.push_failures >= 2
      or (new.token_empty and (new.failing_began_at is not null or new.tablet_called_at >= new.device_assigned_at)))
    then coalesce(new.failing_began_at, was_failing, date_trunc('milliseconds', now())) end;
  new.finished_since := case when new.active then new.finished_at end;
  new.not_started_from := case when new.active and not (new.has_device and new.has_programme)
    then new.registered_at end;
  return new;
end $$;
--> statement-breakpoint
-- A new push token clears the failures counted against the old one; a token cleared (Firebase
-- answered that it is no longer registered, after the failure that began the run) keeps the run's
-- start, or begins one.
create or replace function participant_followup_participant_changed() returns trigger language plpgsql as $$
begin
  update participant_followup f set
    active = new.status = 'active',
    has_device = new.authorized_device_id is not null,
    device_assigned_at = case
      when new.authorized_device_id is null then null
      when new.authorized_device_id is distinct from old.authorized_device_id then date_trunc('milliseconds', now())
      else f.device_assigned_at end,
    token_empty = coalesce(new.push_notification_id, 'empty') = 'empty',
    push_failures = case when new.push_notification_id is distinct from old.push_notification_id then 0
      else f.push_failures end,
    failing_began_at = case
      when new.push_notification_id is not distinct from old.push_notification_id then f.failing_began_at
      when coalesce(new.push_notification_id, 'empty') = 'empty'
        then coalesce(f.failing_began_at, date_trunc('milliseconds', now())) end
  where f.participant_id = new.participant_id;
  return null;
end $$;
--> statement-breakpoint
-- A programme given or taken away starts the missed days afresh (the daily check, or the view or
-- change that follows in the same transaction, counts them).
create or replace function participant_followup_programme_changed() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    update participant_followup set has_programme = true, days_missed = 0, first_missed_on = null,
      third_missed_on = null
    where participant_id = new.participant_id;
  else
    update participant_followup set has_programme = false, finished_at = null, days_missed = 0,
      first_missed_on = null, third_missed_on = null
    where participant_id = old.participant_id;
  end if;
  return null;
end $$;
--> statement-breakpoint
-- Another set starts the programme again: it is not finished any more, and nothing is missed yet.
create or replace function participant_followup_set_changed() returns trigger language plpgsql as $$
begin
  update participant_followup set finished_at = null, days_missed = 0, first_missed_on = null,
    third_missed_on = null
  where participant_id = new.participant_id
    and (finished_at is not null or days_missed <> 0 or first_missed_on is not null or third_missed_on is not null);
  return null;
end $$;
--> statement-breakpoint
-- No writer may change programmes, views, push outcomes or the worklist's facts during the backfill.
lock table participants, fitness_participation_progress, seen_videos, push_outbox, participant_followup
  in share row exclusive mode;
--> statement-breakpoint
-- The missed days of every programme, as of the last day the daily check finished (the programme's
-- calendar; the migration knows no time zone), with the views recorded since; the next check
-- counts them for its own day.
update participant_followup f set
  days_missed = m.missed,
  first_missed_on = case when m.missed >= 1
    then b.started_date + (b.seen / b.v) * 7 + b.seen % b.v + 1 end,
  third_missed_on = case when m.missed >= 3
    then b.started_date + ((b.seen + 2) / b.v) * 7 + (b.seen + 2) % b.v + 1 end
from (
  select p.participant_id, p.started_date, p.seen_count as seen, s.videos_in_week as v,
    s.number_of_weeks * s.videos_in_week as total,
    greatest(0, coalesce((select max(run_date) from adherence_runs where finished_at is not null), current_date)
      - p.started_date) as dp
  from fitness_participation_progress p
  join fitness_video_sets s on s.fitness_video_set_id = p.fitness_video_set_id
) b
cross join lateral (
  select case when b.dp < 1 then 0
    else greatest(0, least(b.total, ((b.dp - 1) / 7) * b.v + least((b.dp - 1) % 7 + 1, b.v)) - b.seen) end as missed
) m
where f.participant_id = b.participant_id;
--> statement-breakpoint
-- Programme finished since the view of its last day, not since the check that saw it.
update participant_followup f set finished_at = sv.created_at
from fitness_participation_progress p
join videos cv on cv.fitness_video_set_id = p.fitness_video_set_id
  and cv.week_number = p.current_week and cv.day_number = p.current_day
join seen_videos sv on sv.participant_id = p.participant_id and sv.video_id = cv.video_id
where f.participant_id = p.participant_id and f.finished_at is not null;
--> statement-breakpoint
-- Reminders failing since the first of the failures in a row (after the last message delivered),
-- or, for a token cleared by Firebase's answer, since that answer's message.
update participant_followup f set failing_began_at = r.began
from (
  select o.participant_id, min(o.created_at) as began
  from push_outbox o
  where o.participant_id is not null
    and o.status in ('failed', 'failed: the app is no longer registered for push messages (token cleared)')
    and o.target_token is not null and o.target_token <> 'empty'
    and o.push_id > coalesce((select max(d.push_id) from push_outbox d
      where d.participant_id = o.participant_id and d.status = 'sent'), 0)
  group by o.participant_id
) r
where f.participant_id = r.participant_id and (f.push_failures >= 1 or f.token_empty);
--> statement-breakpoint
-- Every row derived again by the rules above (the tally's trigger records each change).
update participant_followup set active = active;
--> statement-breakpoint
-- The tally counted afresh from the rows, as 0016 first counted it.
delete from followup_tally;
--> statement-breakpoint
insert into followup_tally (reason, delta)
select r.reason, r.n from (
  select 'listed' as reason, count(*) filter (where behind_since is not null or slightly_since is not null
    or failing_since is not null or finished_since is not null)::int as n from participant_followup
  union all select 'behind', count(*) filter (where behind_since is not null)::int from participant_followup
  union all select 'slightly_behind', count(*) filter (where slightly_since is not null)::int from participant_followup
  union all select 'reminders_failing', count(*) filter (where failing_since is not null)::int from participant_followup
  union all select 'programme_finished', count(*) filter (where finished_since is not null)::int from participant_followup
) r where r.n <> 0;
