-- report_cohort: who the reports count (a programme, and a tablet now or in the device history),
-- under which set, start day and discharge week; programme_starts: report_cohort counted per set,
-- start day and discharge week. Every change to those facts (programmes, tablets, device history,
-- discharges, deletions) recomputes the participant's row and moves what the week rollups
-- (programme-weeks.sql) counted under the old row to the new one.
-- Proof: db/report-rollups.test.ts ("where people stop": starts, discharges, tablets, device
-- history) recounts them from the base tables.

-- Who the report counts, among the given participants, and under what.
create or replace function report_cohort_of(ids integer[]) returns setof report_cohort language sql stable
security definer set search_path = public, pg_temp as $$
  select pr.participant_id, pr.fitness_video_set_id, pr.started_date,
    case when pa.discharged_on is null then null
         when pa.discharged_on < pr.started_date then 0
         else (pa.discharged_on - pr.started_date) / 7 + 1 end,
    pa.site_id
  from (select distinct unnest(ids) as participant_id) i
  join fitness_participation_progress pr on pr.participant_id = i.participant_id
  join participants pa on pa.participant_id = pr.participant_id
  where pa.authorized_device_id is not null
    or exists (select 1 from device_assignments da where da.participant_id = pa.participant_id)
$$;

create or replace function report_cohort_refresh(ids integer[]) returns void language plpgsql
security definer set search_path = public, pg_temp as $$
declare
  changed integer[];
  moved integer[];
  events programme_week_event[];
begin
  select array_agg(d.participant_id), array_agg(d.participant_id) filter (where d.moved)
  into changed, moved
  from (
    select coalesce(w.participant_id, m.participant_id) as participant_id,
      (w.fitness_video_set_id, w.started_on, w.site_id) is distinct from (m.fitness_video_set_id, m.started_on, m.site_id) as moved
    from report_cohort_of(ids) w
    full join (select c.* from report_cohort c where c.participant_id = any(ids)) m
      on m.participant_id = w.participant_id
    where (w.fitness_video_set_id, w.started_on, w.discharge_week, w.site_id)
      is distinct from (m.fitness_video_set_id, m.started_on, m.discharge_week, m.site_id)
  ) d;
  if changed is null then return; end if;
  -- Their weeks as counted until now (under the old row), taken away; then under the new one.
  events := seen_week_events(array(select w from seen_weeks w where w.participant_id = any(moved)), -1);
  insert into programme_starts as s (site_id, fitness_video_set_id, started_on, discharge_week, participants)
  select d.site_id, d.fitness_video_set_id, d.started_on, d.discharge_week, sum(d.n)::int from (
    select c.site_id, c.fitness_video_set_id, c.started_on, c.discharge_week, -1 as n from report_cohort c
    where c.participant_id = any(changed)
    union all
    select w.site_id, w.fitness_video_set_id, w.started_on, w.discharge_week, 1 from report_cohort_of(changed) w
  ) d
  group by 1, 2, 3, 4 having sum(d.n) <> 0
  on conflict (site_id, fitness_video_set_id, started_on, discharge_week) do update
    set participants = s.participants + excluded.participants;
  delete from programme_starts where participants = 0;
  delete from report_cohort where participant_id = any(changed);
  insert into report_cohort select * from report_cohort_of(changed);
  events := events || seen_week_events(array(select w from seen_weeks w where w.participant_id = any(moved)), 1);
  perform programme_week_events_add(events);
end $$;

create or replace function report_cohort_rows_changed() returns trigger language plpgsql
security definer set search_path = public, pg_temp as $$
begin
  if tg_op = 'INSERT' then
    perform report_cohort_refresh(array(select participant_id from added));
  else
    perform report_cohort_refresh(array(select participant_id from removed));
  end if;
  return null;
end $$;

create or replace function report_cohort_row_changed() returns trigger language plpgsql
security definer set search_path = public, pg_temp as $$
begin
  perform report_cohort_refresh(array[old.participant_id, new.participant_id]);
  return null;
end $$;

create or replace trigger report_cohort_programme_insert after insert on fitness_participation_progress
  referencing new table as added for each statement execute function report_cohort_rows_changed();

create or replace trigger report_cohort_programme_delete after delete on fitness_participation_progress
  referencing old table as removed for each statement execute function report_cohort_rows_changed();

create or replace trigger report_cohort_programme_update
  after update of participant_id, fitness_video_set_id, started_date on fitness_participation_progress
  for each row when (old.participant_id is distinct from new.participant_id
    or old.fitness_video_set_id is distinct from new.fitness_video_set_id
    or old.started_date is distinct from new.started_date)
  execute function report_cohort_row_changed();

-- A row trigger with a WHEN: never run for the tablet's contact-time updates of participants.
create or replace trigger report_cohort_participant_update
  after update of authorized_device_id, discharged_on, site_id on participants
  for each row when (old.authorized_device_id is distinct from new.authorized_device_id
    or old.discharged_on is distinct from new.discharged_on
    or old.site_id is distinct from new.site_id)
  execute function report_cohort_row_changed();

create or replace trigger report_cohort_assignment_insert after insert on device_assignments
  referencing new table as added for each statement execute function report_cohort_rows_changed();

create or replace trigger report_cohort_assignment_delete after delete on device_assignments
  referencing old table as removed for each statement execute function report_cohort_rows_changed();

create or replace trigger report_cohort_assignment_update after update of participant_id on device_assignments
  for each row when (old.participant_id is distinct from new.participant_id)
  execute function report_cohort_row_changed();
