-- participant_followup.assessment_due_on / assessment_due_until / assessment_due_from: the current
-- or next stretch of days on which a participant's scheduled assessments are due and not recorded
-- (the follow-up reason assessment_due), so the worklist reads an index range, never a scan.
-- The rules are modules/outcomes/timeline.ts's (docs/outcomes.md): baseline from registration to
-- the first week's last day; an interim from its week's first day to 4 weeks after its last; the
-- end from the last week's first day to 4 weeks after its last (a discharge as completed: from the
-- discharge, if earlier, to 4 weeks after it); a discharge ends the others. Retired measures are
-- never due. Days are the programme's calendar (programme_settings.time_zone).
-- Kept where a fact changes: results recorded, a schedule changed, a measure retired, a programme
-- chosen, moved or ended, a discharge, the programme's time zone; the daily check moves everyone on.
-- Proof: modules/outcomes/due.property.test.ts (the table against the TypeScript timeline, day by
-- day on random schedules, through the real writers).

create or replace function programme_time_zone() returns text language sql stable as $$
  select coalesce((select value from programme_settings where name = 'time_zone'), 'UTC')
$$;
create or replace function assessment_due_refresh(ids integer[], today date default null) returns void
language plpgsql as $$
declare
  zone text := programme_time_zone();
begin
  if today is null then
    today := (now() at time zone zone)::date;
  end if;
  with people as (
    select f.participant_id, (f.registered_at at time zone zone)::date as registered_on, pa.status,
      pa.discharged_on, pr.started_date as s, vs.number_of_weeks as w, pr.fitness_video_set_id as set_id
    from participant_followup f
    join participants pa on pa.participant_id = f.participant_id
    join fitness_participation_progress pr on pr.participant_id = f.participant_id
    join fitness_video_sets vs on vs.fitness_video_set_id = pr.fitness_video_set_id
    where f.participant_id = any(ids)
  ), windows as (
    select p.participant_id, p.s, sch.timepoint, sch.week, sch.measure_id,
      case
        when sch.timepoint = 'baseline' then p.registered_on
        when sch.timepoint = 'interim' then p.s + 7 * (sch.week - 1)
        when p.status = 'completed' then least(p.s + 7 * (p.w - 1), p.discharged_on)
        else p.s + 7 * (p.w - 1)
      end as due_on,
      case
        when sch.timepoint = 'baseline' then least(p.s + 6, p.discharged_on)
        when sch.timepoint = 'interim' then least(p.s + 7 * sch.week - 1 + 28, p.discharged_on)
        when p.status = 'completed' then p.discharged_on + 28
        else least(p.s + 7 * p.w - 1 + 28, p.discharged_on)
      end as due_until
    from people p
    join assessment_schedules sch on sch.fitness_video_set_id = p.set_id
    join outcome_measures m on m.measure_id = sch.measure_id and not m.retired
  ), current_results as (
    select distinct on (coalesce(r.amends, r.assessment_id)) r.participant_id, r.measure_id, r.timepoint,
      r.week, r.taken_on, r.entered_in_error
    from assessment_results r
    where r.participant_id = any(ids)
    order by coalesce(r.amends, r.assessment_id), r.assessment_id desc
  ), pending as (
    select w.participant_id, w.due_on, w.due_until from windows w
    where w.due_until >= w.due_on
      and not exists (
        select 1 from current_results c
        where c.participant_id = w.participant_id and c.measure_id = w.measure_id
          and c.timepoint = w.timepoint and not c.entered_in_error
          and case w.timepoint
            when 'baseline' then c.taken_on <= w.s + 6
            when 'interim' then c.week = w.week
            else c.taken_on >= w.s
          end)
  ), reaching as (
    -- Windows that overlap or touch make one stretch: a window starts a new one only after every
    -- earlier window has ended by the day before.
    select participant_id, due_on, due_until,
      max(due_until) over (partition by participant_id order by due_on, due_until
        rows between unbounded preceding and 1 preceding) as reach
    from pending
  ), stretches as (
    select participant_id, due_on, due_until,
      count(*) filter (where reach is null or due_on > reach + 1)
        over (partition by participant_id order by due_on, due_until) as stretch
    from reaching
  ), chosen as (
    select distinct on (participant_id) participant_id, due_on, due_until
    from (
      select participant_id, stretch, min(due_on) as due_on, max(due_until) as due_until
      from stretches group by participant_id, stretch
    ) merged
    where due_until >= today
    order by participant_id, due_on
  )
  update participant_followup f set
    assessment_due_on = c.due_on,
    assessment_due_until = c.due_until,
    assessment_due_from = c.due_on::timestamp at time zone zone
  from (select distinct unnest(ids) as participant_id) x
  left join chosen c on c.participant_id = x.participant_id
  where f.participant_id = x.participant_id
    and (f.assessment_due_on is distinct from c.due_on or f.assessment_due_until is distinct from c.due_until
      or f.assessment_due_from is distinct from c.due_on::timestamp at time zone zone);
end $$;
create or replace function assessment_due_results_added() returns trigger language plpgsql
security definer set search_path = public, pg_temp as $$
begin
  perform assessment_due_refresh(array(select distinct participant_id from added));
  return null;
end $$;
create trigger assessment_due_results after insert on assessment_results
  referencing new table as added for each statement execute function assessment_due_results_added();
-- A schedule changed: everyone on the sets it belongs to.
create or replace function assessment_due_schedule_changed() returns trigger language plpgsql
security definer set search_path = public, pg_temp as $$
begin
  perform assessment_due_refresh(array(
    select pr.participant_id from fitness_participation_progress pr
    where pr.fitness_video_set_id in (select fitness_video_set_id from changed)));
  return null;
end $$;
create trigger assessment_due_schedule_insert after insert on assessment_schedules
  referencing new table as changed for each statement execute function assessment_due_schedule_changed();
create trigger assessment_due_schedule_delete after delete on assessment_schedules
  referencing old table as changed for each statement execute function assessment_due_schedule_changed();
-- A measure retired (or back): everyone on the sets that schedule it.
create or replace function assessment_due_measure_retired() returns trigger language plpgsql
security definer set search_path = public, pg_temp as $$
begin
  perform assessment_due_refresh(array(
    select pr.participant_id from fitness_participation_progress pr
    where pr.fitness_video_set_id in (
      select s.fitness_video_set_id from assessment_schedules s where s.measure_id = new.measure_id)));
  return null;
end $$;
create trigger assessment_due_measure after update of retired on outcome_measures
  for each row when (old.retired is distinct from new.retired)
  execute function assessment_due_measure_retired();
-- A programme chosen, moved or ended (a re-referral deletes it).
create or replace function assessment_due_programmes_changed() returns trigger language plpgsql
security definer set search_path = public, pg_temp as $$
begin
  perform assessment_due_refresh(array(select participant_id from changed));
  return null;
end $$;
create trigger assessment_due_programme_insert after insert on fitness_participation_progress
  referencing new table as changed for each statement execute function assessment_due_programmes_changed();
create trigger assessment_due_programme_delete after delete on fitness_participation_progress
  referencing old table as changed for each statement execute function assessment_due_programmes_changed();
create or replace function assessment_due_one_changed() returns trigger language plpgsql
security definer set search_path = public, pg_temp as $$
begin
  perform assessment_due_refresh(array[new.participant_id]);
  return null;
end $$;
create trigger assessment_due_programme_update after update of started_date, fitness_video_set_id
  on fitness_participation_progress for each row
  when (old.started_date is distinct from new.started_date or old.fitness_video_set_id is distinct from new.fitness_video_set_id)
  execute function assessment_due_one_changed();
-- A discharge (or a re-referral) moves the end's window and closes the others.
create trigger assessment_due_participant after update of status, discharged_on on participants
  for each row when (old.status is distinct from new.status or old.discharged_on is distinct from new.discharged_on)
  execute function assessment_due_one_changed();
-- The programme's calendar changed (the server writes ADHERENCE_CHECK_TZ at start): every day again.
create or replace function assessment_due_time_zone_changed() returns trigger language plpgsql
security definer set search_path = public, pg_temp as $$
begin
  perform assessment_due_refresh(array(select participant_id from fitness_participation_progress));
  return null;
end $$;
create trigger assessment_due_time_zone_insert after insert on programme_settings
  for each row when (new.name = 'time_zone') execute function assessment_due_time_zone_changed();
create trigger assessment_due_time_zone_update after update on programme_settings
  for each row when (new.name = 'time_zone' and old.value is distinct from new.value)
  execute function assessment_due_time_zone_changed();
