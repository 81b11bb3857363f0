CREATE TABLE "programme_starts" (
	"fitness_video_set_id" integer NOT NULL,
	"started_on" date NOT NULL,
	"discharge_week" integer,
	"participants" integer NOT NULL,
	CONSTRAINT "programme_starts_key" UNIQUE NULLS NOT DISTINCT("fitness_video_set_id","started_on","discharge_week")
);
--> statement-breakpoint
CREATE TABLE "programme_week_completions" (
	"day" date NOT NULL,
	"fitness_video_set_id" integer NOT NULL,
	"week_number" integer NOT NULL,
	"started_on" date NOT NULL,
	"participants" integer NOT NULL,
	CONSTRAINT "programme_week_completions_day_fitness_video_set_id_week_number_started_on_pk" PRIMARY KEY("day","fitness_video_set_id","week_number","started_on")
);
--> statement-breakpoint
CREATE TABLE "programme_week_totals" (
	"fitness_video_set_id" integer NOT NULL,
	"week_number" integer NOT NULL,
	"started_on" date NOT NULL,
	"participants" integer NOT NULL,
	CONSTRAINT "programme_week_totals_fitness_video_set_id_week_number_started_on_pk" PRIMARY KEY("fitness_video_set_id","week_number","started_on")
);
--> statement-breakpoint
CREATE TABLE "report_cohort" (
	"participant_id" integer PRIMARY KEY NOT NULL,
	"fitness_video_set_id" integer NOT NULL,
	"started_on" date NOT NULL,
	"discharge_week" integer
);
--> statement-breakpoint
ALTER TABLE "seen_weeks" ADD COLUMN "completed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "seen_weeks" ADD COLUMN "completed_until" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "programme_starts_empty_idx" ON "programme_starts" USING btree ("fitness_video_set_id") WHERE "programme_starts"."participants" = 0;--> statement-breakpoint
CREATE INDEX "programme_week_completions_empty_idx" ON "programme_week_completions" USING btree ("day") WHERE "programme_week_completions"."participants" = 0;--> statement-breakpoint
CREATE INDEX "programme_week_totals_empty_idx" ON "programme_week_totals" USING btree ("fitness_video_set_id") WHERE "programme_week_totals"."participants" = 0;--> statement-breakpoint
-- "Where people stop" (issue 33) by its own keys, kept in the transaction of every change that
-- moves it, so the report sums a few thousand rows instead of joining its cohort to seen_weeks:
-- - seen_weeks.completed_at / completed_until: when the week's views first numbered its videos,
--   and first outnumbered them (only after a video moved into the week). The report's "watched
--   every video by the period's end" is exactly: completed_at before the end, completed_until not.
--   A row trigger sets them whenever a week's count or latest view changes; a change of videos
--   sets them again for the weeks it touched.
-- - report_cohort: who the report counts (a programme, and a tablet now or in the device history),
--   under which set, start day and discharge week. Every change to those (programmes, tablets,
--   device history, discharges, deletions) recomputes the participant's row and moves what the
--   rollups counted under the old one to the new one.
-- - programme_starts: report_cohort counted per set, start day and discharge week.
-- - programme_week_completions (per UTC day) and programme_week_totals (over all days): +1 at a
--   cohort week's completed_at, -1 at its completed_until, per set, week and start day.
create type programme_week_event as (
  fitness_video_set_id integer, week_number integer, started_on date, at timestamptz, participants integer
);
--> statement-breakpoint
create or replace function seen_week_completion(participant integer, video_set integer, week integer,
  views integer, latest timestamptz)
returns table (completed_at timestamptz, completed_until timestamptz) language sql stable as $$
  select case when v.n = 0 or views < v.n then null
              when views = v.n then latest
              else (select sv.created_at from seen_videos sv
                    where sv.participant_id = participant and sv.fitness_video_set_id = video_set
                      and sv.week_number = week
                    order by sv.created_at offset v.n - 1 limit 1) end,
         case when v.n > 0 and views > v.n then
                (select sv.created_at from seen_videos sv
                 where sv.participant_id = participant and sv.fitness_video_set_id = video_set
                   and sv.week_number = week
                 order by sv.created_at offset v.n limit 1) end
  from (select count(*)::int as n from videos
        where fitness_video_set_id = video_set and week_number = week) v
$$;
--> statement-breakpoint
create or replace function seen_weeks_completion() returns trigger language plpgsql as $$
begin
  select c.completed_at, c.completed_until into new.completed_at, new.completed_until
  from seen_week_completion(new.participant_id, new.fitness_video_set_id, new.week_number, new.seen, new.last_seen_at) c;
  return new;
end $$;
--> statement-breakpoint
-- completed_at and completed_until again for every seen week of the given (set, week) pairs.
create or replace function seen_weeks_complete(video_sets integer[], weeks integer[]) returns void language sql as $$
  update seen_weeks w set completed_at = c.completed_at, completed_until = c.completed_until
  from (select distinct * from unnest(video_sets, weeks)) k(fitness_video_set_id, week_number)
  join seen_weeks x on x.fitness_video_set_id = k.fitness_video_set_id and x.week_number = k.week_number
  cross join lateral seen_week_completion(x.participant_id, x.fitness_video_set_id, x.week_number, x.seen, x.last_seen_at) c
  where w.participant_id = x.participant_id and w.fitness_video_set_id = x.fitness_video_set_id
    and w.week_number = x.week_number
    and (w.completed_at, w.completed_until) is distinct from (c.completed_at, c.completed_until)
$$;
--> statement-breakpoint
-- The completions and their undoing of the given seen weeks, for the participants report_cohort
-- counts on that set, each times sign. PL/pgSQL: its plan is kept for the session (an SQL function
-- that cannot be inlined is planned again on every call, on the tablet's view path).
create or replace function seen_week_events(weeks seen_weeks[], sign integer) returns programme_week_event[]
language plpgsql stable as $$
begin
  if not exists (select 1 from unnest(weeks) w where w.completed_at is not null) then return '{}'; end if;
  return (
    select coalesce(array_agg(row(w.fitness_video_set_id, w.week_number, m.started_on, e.at, e.n * sign)::programme_week_event), '{}')
    from unnest(weeks) w
    join report_cohort m on m.participant_id = w.participant_id and m.fitness_video_set_id = w.fitness_video_set_id
    cross join lateral (values (w.completed_at, 1), (w.completed_until, -1)) e(at, n)
    where e.at is not null);
end $$;
--> statement-breakpoint
create or replace function programme_week_events_add(events programme_week_event[]) returns void language plpgsql as $$
begin
  if coalesce(cardinality(events), 0) = 0 then return; end if;
  insert into programme_week_completions as d (day, fitness_video_set_id, week_number, started_on, participants)
  select (e.at at time zone 'UTC')::date, e.fitness_video_set_id, e.week_number, e.started_on, sum(e.participants)::int
  from unnest(events) e group by 1, 2, 3, 4 having sum(e.participants) <> 0
  on conflict (day, fitness_video_set_id, week_number, started_on) do update
    set participants = d.participants + excluded.participants;
  delete from programme_week_completions where participants = 0;
  insert into programme_week_totals as t (fitness_video_set_id, week_number, started_on, participants)
  select e.fitness_video_set_id, e.week_number, e.started_on, sum(e.participants)::int
  from unnest(events) e group by 1, 2, 3 having sum(e.participants) <> 0
  on conflict (fitness_video_set_id, week_number, started_on) do update
    set participants = t.participants + excluded.participants;
  delete from programme_week_totals where participants = 0;
end $$;
--> statement-breakpoint
create or replace function programme_weeks_seen_weeks_changed() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    perform programme_week_events_add(seen_week_events(array(select row(a.*)::seen_weeks from added a), 1));
  elsif tg_op = 'DELETE' then
    perform programme_week_events_add(seen_week_events(array(select row(r.*)::seen_weeks from removed r), -1));
  else
    perform programme_week_events_add(
      seen_week_events(array(select row(b.*)::seen_weeks from before_rows b), -1)
      || seen_week_events(array(select row(a.*)::seen_weeks from after_rows a), 1));
  end if;
  return null;
end $$;
--> statement-breakpoint
-- Who the report counts, among the given participants, and under what.
create or replace function report_cohort_of(ids integer[]) returns setof report_cohort language sql stable as $$
  select pr.participant_id, pr.fitness_video_set_id, pr.started_date,
    case when pa.discharged_on is null then null
         when pa.discharged_on < pr.started_date then 0
         else (pa.discharged_on - pr.started_date) / 7 + 1 end
  from (select distinct unnest(ids) as participant_id) i
  join fitness_participation_progress pr on pr.participant_id = i.participant_id
  join participants pa on pa.participant_id = pr.participant_id
  where pa.authorized_device_id is not null
    or exists (select 1 from device_assignments da where da.participant_id = pa.participant_id)
$$;
--> statement-breakpoint
create or replace function report_cohort_refresh(ids integer[]) returns void language plpgsql as $$
declare
  changed integer[];
  moved integer[];
  events programme_week_event[];
begin
  select array_agg(d.participant_id), array_agg(d.participant_id) filter (where d.moved)
  into changed, moved
  from (
    select coalesce(w.participant_id, m.participant_id) as participant_id,
      (w.fitness_video_set_id, w.started_on) is distinct from (m.fitness_video_set_id, m.started_on) as moved
    from report_cohort_of(ids) w
    full join (select c.* from report_cohort c where c.participant_id = any(ids)) m
      on m.participant_id = w.participant_id
    where (w.fitness_video_set_id, w.started_on, w.discharge_week)
      is distinct from (m.fitness_video_set_id, m.started_on, m.discharge_week)
  ) d;
  if changed is null then return; end if;
  -- Their weeks as counted until now (under the old row), taken away; then under the new one.
  events := seen_week_events(array(select w from seen_weeks w where w.participant_id = any(moved)), -1);
  insert into programme_starts as s (fitness_video_set_id, started_on, discharge_week, participants)
  select d.fitness_video_set_id, d.started_on, d.discharge_week, sum(d.n)::int from (
    select c.fitness_video_set_id, c.started_on, c.discharge_week, -1 as n from report_cohort c
    where c.participant_id = any(changed)
    union all
    select w.fitness_video_set_id, w.started_on, w.discharge_week, 1 from report_cohort_of(changed) w
  ) d
  group by 1, 2, 3 having sum(d.n) <> 0
  on conflict (fitness_video_set_id, started_on, discharge_week) do update
    set participants = s.participants + excluded.participants;
  delete from programme_starts where participants = 0;
  delete from report_cohort where participant_id = any(changed);
  insert into report_cohort select * from report_cohort_of(changed);
  events := events || seen_week_events(array(select w from seen_weeks w where w.participant_id = any(moved)), 1);
  perform programme_week_events_add(events);
end $$;
--> statement-breakpoint
create or replace function report_cohort_rows_changed() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    perform report_cohort_refresh(array(select participant_id from added));
  else
    perform report_cohort_refresh(array(select participant_id from removed));
  end if;
  return null;
end $$;
--> statement-breakpoint
create or replace function report_cohort_row_changed() returns trigger language plpgsql as $$
begin
  perform report_cohort_refresh(array[old.participant_id, new.participant_id]);
  return null;
end $$;
--> statement-breakpoint
-- A video added, deleted or moved to another week changes the number of videos of its weeks.
create or replace function programme_weeks_videos_changed() returns trigger language plpgsql as $$
declare
  video_sets integer[];
  weeks integer[];
begin
  if tg_op = 'INSERT' then
    select array_agg(fitness_video_set_id), array_agg(week_number) into video_sets, weeks from added;
  elsif tg_op = 'DELETE' then
    select array_agg(fitness_video_set_id), array_agg(week_number) into video_sets, weeks from removed;
  else
    select array_agg(k.fitness_video_set_id), array_agg(k.week_number) into video_sets, weeks
    from before_rows b join after_rows a on a.video_id = b.video_id
    cross join lateral (values (b.fitness_video_set_id, b.week_number), (a.fitness_video_set_id, a.week_number))
      k(fitness_video_set_id, week_number)
    where (b.fitness_video_set_id, b.week_number) is distinct from (a.fitness_video_set_id, a.week_number);
  end if;
  if video_sets is not null then perform seen_weeks_complete(video_sets, weeks); end if;
  return null;
end $$;
--> statement-breakpoint
-- Everything from seen_weeks and report_cohort afresh: the fill below, and a bulk load made with
-- triggers off (the benchmark's).
create or replace function programme_weeks_rebuild() returns void language plpgsql as $$
declare
  video_sets integer[];
  weeks integer[];
begin
  select array_agg(fitness_video_set_id), array_agg(week_number) into video_sets, weeks
  from (select distinct fitness_video_set_id, week_number from seen_weeks) k;
  if video_sets is not null then perform seen_weeks_complete(video_sets, weeks); end if;
  delete from programme_week_completions;
  delete from programme_week_totals;
  insert into programme_week_completions (day, fitness_video_set_id, week_number, started_on, participants)
  select (e.at at time zone 'UTC')::date, w.fitness_video_set_id, w.week_number, m.started_on, sum(e.n)::int
  from seen_weeks w
  join report_cohort m on m.participant_id = w.participant_id and m.fitness_video_set_id = w.fitness_video_set_id
  cross join lateral (values (w.completed_at, 1), (w.completed_until, -1)) e(at, n)
  where e.at is not null
  group by 1, 2, 3, 4 having sum(e.n) <> 0;
  insert into programme_week_totals (fitness_video_set_id, week_number, started_on, participants)
  select fitness_video_set_id, week_number, started_on, sum(participants)::int from programme_week_completions
  group by 1, 2, 3 having sum(participants) <> 0;
end $$;
--> statement-breakpoint
lock table seen_videos, videos, fitness_participation_progress, participants, device_assignments
  in share row exclusive mode;
--> statement-breakpoint
insert into report_cohort
select * from report_cohort_of(array(select participant_id from fitness_participation_progress));
--> statement-breakpoint
insert into programme_starts (fitness_video_set_id, started_on, discharge_week, participants)
select fitness_video_set_id, started_on, discharge_week, count(*)::int from report_cohort group by 1, 2, 3;
--> statement-breakpoint
select programme_weeks_rebuild();
--> statement-breakpoint
-- Built once filled: cheaper than keeping them through every row of the fill.
CREATE INDEX "seen_weeks_completed_at_idx" ON "seen_weeks" USING btree ("completed_at") WHERE "seen_weeks"."completed_at" is not null;--> statement-breakpoint
CREATE INDEX "seen_weeks_completed_until_idx" ON "seen_weeks" USING btree ("completed_until") WHERE "seen_weeks"."completed_until" is not null;--> statement-breakpoint
create trigger seen_weeks_completion before insert or update of seen, last_seen_at on seen_weeks
  for each row execute function seen_weeks_completion();
--> statement-breakpoint
create trigger programme_weeks_seen_weeks_insert after insert on seen_weeks
  referencing new table as added for each statement execute function programme_weeks_seen_weeks_changed();
--> statement-breakpoint
create trigger programme_weeks_seen_weeks_delete after delete on seen_weeks
  referencing old table as removed for each statement execute function programme_weeks_seen_weeks_changed();
--> statement-breakpoint
create trigger programme_weeks_seen_weeks_update after update on seen_weeks
  referencing old table as before_rows new table as after_rows
  for each statement execute function programme_weeks_seen_weeks_changed();
--> statement-breakpoint
create trigger report_cohort_programme_insert after insert on fitness_participation_progress
  referencing new table as added for each statement execute function report_cohort_rows_changed();
--> statement-breakpoint
create trigger report_cohort_programme_delete after delete on fitness_participation_progress
  referencing old table as removed for each statement execute function report_cohort_rows_changed();
--> statement-breakpoint
create trigger report_cohort_programme_update
  after update of participant_id, fitness_video_set_id, started_date on fitness_participation_progress
  for each row when (old.participant_id is distinct from new.participant_id
    or old.fitness_video_set_id is distinct from new.fitness_video_set_id
    or old.started_date is distinct from new.started_date)
  execute function report_cohort_row_changed();
--> statement-breakpoint
-- A row trigger with a WHEN: never run for the tablet's contact-time updates of participants.
create trigger report_cohort_participant_update
  after update of authorized_device_id, discharged_on on participants
  for each row when (old.authorized_device_id is distinct from new.authorized_device_id
    or old.discharged_on is distinct from new.discharged_on)
  execute function report_cohort_row_changed();
--> statement-breakpoint
create trigger report_cohort_assignment_insert after insert on device_assignments
  referencing new table as added for each statement execute function report_cohort_rows_changed();
--> statement-breakpoint
create trigger report_cohort_assignment_delete after delete on device_assignments
  referencing old table as removed for each statement execute function report_cohort_rows_changed();
--> statement-breakpoint
create trigger report_cohort_assignment_update after update of participant_id on device_assignments
  for each row when (old.participant_id is distinct from new.participant_id)
  execute function report_cohort_row_changed();
--> statement-breakpoint
create trigger programme_weeks_videos_insert after insert on videos
  referencing new table as added for each statement execute function programme_weeks_videos_changed();
--> statement-breakpoint
create trigger programme_weeks_videos_delete after delete on videos
  referencing old table as removed for each statement execute function programme_weeks_videos_changed();
--> statement-breakpoint
create trigger programme_weeks_videos_update after update on videos
  referencing old table as before_rows new table as after_rows
  for each statement execute function programme_weeks_videos_changed();
