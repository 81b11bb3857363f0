-- The "where people stop" report's rollups, by its own keys, kept in the transaction of every change
-- that moves them, so the report sums a few thousand rows instead of joining its cohort to
-- seen_weeks:
-- - seen_weeks.completed_at / completed_until: when the week's views first numbered its videos, and
--   first outnumbered them (only after a video moved into the week). The report's "watched every
--   video by the period's end" is exactly: completed_at before the end, completed_until not. A row
--   trigger sets them whenever a week's count or latest view changes; a change of videos sets them
--   again for the weeks it touched.
-- - programme_week_completions (per UTC day) and programme_week_totals (over all days): +1 at a
--   cohort week's completed_at, -1 at its completed_until, per set, week and start day, for the
--   participants report_cohort counts (report-cohort.sql moves them when the cohort changes).
-- Proof: db/report-rollups.test.ts recounts them from seen_videos, videos and the cohort after
-- every kind of change.

create type programme_week_event as (
  fitness_video_set_id integer, week_number integer, started_on date, at timestamptz, participants integer,
  site_id integer
);

-- When a week of `views` views (the latest at `latest`) was first complete, and first more than
-- complete, from the week's videos and the participant's views.
create or replace function seen_week_completion(participant integer, video_set integer, week integer,
  views integer, latest timestamptz)
returns table (completed_at timestamptz, completed_until timestamptz) language sql stable
security definer set search_path = public, pg_temp as $$
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

create or replace function seen_weeks_completion() returns trigger language plpgsql
security definer set search_path = public, pg_temp as $$
begin
  select c.completed_at, c.completed_until into new.completed_at, new.completed_until
  from seen_week_completion(new.participant_id, new.fitness_video_set_id, new.week_number, new.seen, new.last_seen_at) c;
  return new;
end $$;

-- completed_at and completed_until again for every seen week of the given (set, week) pairs.
create or replace function seen_weeks_complete(video_sets integer[], weeks integer[]) returns void language sql
security definer set search_path = public, pg_temp as $$
  update seen_weeks w set completed_at = c.completed_at, completed_until = c.completed_until
  from (select distinct * from unnest(video_sets, weeks)) k(fitness_video_set_id, week_number)
  join seen_weeks x on x.fitness_video_set_id = k.fitness_video_set_id and x.week_number = k.week_number
  cross join lateral seen_week_completion(x.participant_id, x.fitness_video_set_id, x.week_number, x.seen, x.last_seen_at) c
  where w.participant_id = x.participant_id and w.fitness_video_set_id = x.fitness_video_set_id
    and w.week_number = x.week_number
    and (w.completed_at, w.completed_until) is distinct from (c.completed_at, c.completed_until)
$$;

-- The completions and their undoing of the given seen weeks, for the participants report_cohort
-- counts on that set, each times sign. PL/pgSQL: its plan is kept for the session (an SQL function
-- that cannot be inlined is planned again on every call, on the tablet's view path).
create or replace function seen_week_events(weeks seen_weeks[], sign integer) returns programme_week_event[]
language plpgsql stable security definer set search_path = public, pg_temp as $$
begin
  if not exists (select 1 from unnest(weeks) w where w.completed_at is not null) then return '{}'; end if;
  return (
    select coalesce(array_agg(row(w.fitness_video_set_id, w.week_number, m.started_on, e.at, e.n * sign, m.site_id)::programme_week_event), '{}')
    from unnest(weeks) w
    join report_cohort m on m.participant_id = w.participant_id and m.fitness_video_set_id = w.fitness_video_set_id
    cross join lateral (values (w.completed_at, 1), (w.completed_until, -1)) e(at, n)
    where e.at is not null);
end $$;

create or replace function programme_week_events_add(events programme_week_event[]) returns void language plpgsql
security definer set search_path = public, pg_temp as $$
begin
  if coalesce(cardinality(events), 0) = 0 then return; end if;
  insert into programme_week_completions as d (day, site_id, fitness_video_set_id, week_number, started_on, participants)
  select (e.at at time zone 'UTC')::date, e.site_id, e.fitness_video_set_id, e.week_number, e.started_on, sum(e.participants)::int
  from unnest(events) e group by 1, 2, 3, 4, 5 having sum(e.participants) <> 0
  on conflict (day, site_id, fitness_video_set_id, week_number, started_on) do update
    set participants = d.participants + excluded.participants;
  delete from programme_week_completions where participants = 0;
  insert into programme_week_totals as t (site_id, fitness_video_set_id, week_number, started_on, participants)
  select e.site_id, e.fitness_video_set_id, e.week_number, e.started_on, sum(e.participants)::int
  from unnest(events) e group by 1, 2, 3, 4 having sum(e.participants) <> 0
  on conflict (site_id, fitness_video_set_id, week_number, started_on) do update
    set participants = t.participants + excluded.participants;
  delete from programme_week_totals where participants = 0;
end $$;

create or replace function programme_weeks_seen_weeks_changed() returns trigger language plpgsql
security definer set search_path = public, pg_temp as $$
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

-- A video added, deleted or moved to another week changes the number of videos of its weeks.
create or replace function programme_weeks_videos_changed() returns trigger language plpgsql
security definer set search_path = public, pg_temp as $$
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

-- Everything from seen_weeks and report_cohort afresh: the first fill, and a bulk load made with
-- triggers off (the benchmark's).
create or replace function programme_weeks_rebuild() returns void language plpgsql
security definer set search_path = public, pg_temp as $$
declare
  video_sets integer[];
  weeks integer[];
begin
  select array_agg(fitness_video_set_id), array_agg(week_number) into video_sets, weeks
  from (select distinct fitness_video_set_id, week_number from seen_weeks) k;
  if video_sets is not null then perform seen_weeks_complete(video_sets, weeks); end if;
  delete from programme_week_completions;
  delete from programme_week_totals;
  insert into programme_week_completions (day, site_id, fitness_video_set_id, week_number, started_on, participants)
  select (e.at at time zone 'UTC')::date, m.site_id, w.fitness_video_set_id, w.week_number, m.started_on, sum(e.n)::int
  from seen_weeks w
  join report_cohort m on m.participant_id = w.participant_id and m.fitness_video_set_id = w.fitness_video_set_id
  cross join lateral (values (w.completed_at, 1), (w.completed_until, -1)) e(at, n)
  where e.at is not null
  group by 1, 2, 3, 4, 5 having sum(e.n) <> 0;
  insert into programme_week_totals (site_id, fitness_video_set_id, week_number, started_on, participants)
  select site_id, fitness_video_set_id, week_number, started_on, sum(participants)::int from programme_week_completions
  group by 1, 2, 3, 4 having sum(participants) <> 0;
end $$;

create or replace trigger seen_weeks_completion before insert or update of seen, last_seen_at on seen_weeks
  for each row execute function seen_weeks_completion();

create or replace trigger programme_weeks_seen_weeks_insert after insert on seen_weeks
  referencing new table as added for each statement execute function programme_weeks_seen_weeks_changed();

create or replace trigger programme_weeks_seen_weeks_delete after delete on seen_weeks
  referencing old table as removed for each statement execute function programme_weeks_seen_weeks_changed();

create or replace trigger programme_weeks_seen_weeks_update after update on seen_weeks
  referencing old table as before_rows new table as after_rows
  for each statement execute function programme_weeks_seen_weeks_changed();

create or replace trigger programme_weeks_videos_insert after insert on videos
  referencing new table as added for each statement execute function programme_weeks_videos_changed();

create or replace trigger programme_weeks_videos_delete after delete on videos
  referencing old table as removed for each statement execute function programme_weeks_videos_changed();

create or replace trigger programme_weeks_videos_update after update on videos
  referencing old table as before_rows new table as after_rows
  for each statement execute function programme_weeks_videos_changed();
