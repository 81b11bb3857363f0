-- The Reports screen's rollups of seen_videos, kept in the transaction of every change to it by
-- statement triggers, so a report over a year reads them instead of every view:
-- - seen_weeks, per (participant, set, week): the number of views and the latest one's instant.
--   An insert adds; a delete or update counts the weeks it touched afresh (the latest view may be
--   the one removed), dropping those left without views.
-- - video_day_views, per (UTC day, video): the number of views. Inserts add, deletes take away,
--   updates do both.
-- Proof: db/report-rollups.test.ts recounts both from seen_videos after every kind of change.

create or replace function report_rollups_views_added() returns trigger language plpgsql
security definer set search_path = public, pg_temp as $$
begin
  insert into seen_weeks as w (participant_id, fitness_video_set_id, week_number, seen, last_seen_at)
  select participant_id, fitness_video_set_id, week_number, count(*)::int, max(created_at)
  from added group by 1, 2, 3
  on conflict (participant_id, fitness_video_set_id, week_number) do update
    set seen = w.seen + excluded.seen, last_seen_at = greatest(w.last_seen_at, excluded.last_seen_at);
  insert into video_day_views as d (day, video_id, site_id, views)
  select (a.created_at at time zone 'UTC')::date, a.video_id, p.site_id, count(*)::int
  from added a join participants p on p.participant_id = a.participant_id
  group by 1, 2, 3
  on conflict (day, video_id, site_id) do update set views = d.views + excluded.views;
  return null;
end $$;

create or replace function report_rollups_views_removed() returns trigger language plpgsql
security definer set search_path = public, pg_temp as $$
begin
  update seen_weeks w set seen = c.n, last_seen_at = c.last_at
  from (
    select t.participant_id, t.fitness_video_set_id, t.week_number, count(*)::int as n, max(sv.created_at) as last_at
    from (select distinct participant_id, fitness_video_set_id, week_number from removed) t
    join seen_videos sv on sv.participant_id = t.participant_id
      and sv.fitness_video_set_id = t.fitness_video_set_id and sv.week_number = t.week_number
    group by 1, 2, 3
  ) c
  where w.participant_id = c.participant_id and w.fitness_video_set_id = c.fitness_video_set_id
    and w.week_number = c.week_number;
  delete from seen_weeks w
  using (select distinct participant_id, fitness_video_set_id, week_number from removed) t
  where w.participant_id = t.participant_id and w.fitness_video_set_id = t.fitness_video_set_id
    and w.week_number = t.week_number
    and not exists (select 1 from seen_videos sv where sv.participant_id = t.participant_id
      and sv.fitness_video_set_id = t.fitness_video_set_id and sv.week_number = t.week_number);
  update video_day_views d set views = d.views - r.n
  from (select (r.created_at at time zone 'UTC')::date as day, r.video_id, p.site_id, count(*)::int as n
        from removed r join participants p on p.participant_id = r.participant_id group by 1, 2, 3) r
  where d.day = r.day and d.video_id = r.video_id and d.site_id = r.site_id;
  delete from video_day_views d
  using (select distinct (created_at at time zone 'UTC')::date as day, video_id from removed) r
  where d.day = r.day and d.video_id = r.video_id and d.views <= 0;
  return null;
end $$;

create or replace function report_rollups_views_changed() returns trigger language plpgsql
security definer set search_path = public, pg_temp as $$
begin
  insert into seen_weeks as w (participant_id, fitness_video_set_id, week_number, seen, last_seen_at)
  select t.participant_id, t.fitness_video_set_id, t.week_number, count(*)::int, max(sv.created_at)
  from (
    select participant_id, fitness_video_set_id, week_number from before_rows
    union
    select participant_id, fitness_video_set_id, week_number from after_rows
  ) t
  join seen_videos sv on sv.participant_id = t.participant_id
    and sv.fitness_video_set_id = t.fitness_video_set_id and sv.week_number = t.week_number
  group by 1, 2, 3
  on conflict (participant_id, fitness_video_set_id, week_number) do update
    set seen = excluded.seen, last_seen_at = excluded.last_seen_at;
  delete from seen_weeks w
  using (select participant_id, fitness_video_set_id, week_number from before_rows) t
  where w.participant_id = t.participant_id and w.fitness_video_set_id = t.fitness_video_set_id
    and w.week_number = t.week_number
    and not exists (select 1 from seen_videos sv where sv.participant_id = t.participant_id
      and sv.fitness_video_set_id = t.fitness_video_set_id and sv.week_number = t.week_number);
  insert into video_day_views as d (day, video_id, site_id, views)
  select day, video_id, site_id, sum(delta)::int from (
    select (b.created_at at time zone 'UTC')::date as day, b.video_id, p.site_id, -1 as delta
    from before_rows b join participants p on p.participant_id = b.participant_id
    union all
    select (a.created_at at time zone 'UTC')::date, a.video_id, p.site_id, 1
    from after_rows a join participants p on p.participant_id = a.participant_id
  ) moved
  group by 1, 2, 3
  having sum(delta) <> 0
  on conflict (day, video_id, site_id) do update set views = d.views + excluded.views;
  delete from video_day_views d
  using (select distinct (created_at at time zone 'UTC')::date as day, video_id from before_rows) r
  where d.day = r.day and d.video_id = r.video_id and d.views <= 0;
  return null;
end $$;

create or replace trigger report_rollups_views_insert after insert on seen_videos
  referencing new table as added for each statement execute function report_rollups_views_added();

create or replace trigger report_rollups_views_delete after delete on seen_videos
  referencing old table as removed for each statement execute function report_rollups_views_removed();

create or replace trigger report_rollups_views_update after update on seen_videos
  referencing old table as before_rows new table as after_rows
  for each statement execute function report_rollups_views_changed();
