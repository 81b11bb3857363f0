-- fitness_participation_progress.seen_count: the distinct videos of the participant's current set
-- they have seen, i.e. their rows of seen_videos for that set (unique per participant and video).
-- Kept in the transaction of every change that moves it, so the daily check reads one row per
-- participant instead of counting every view (modules/adherence/check.ts):
-- - views recorded, removed (a new start on a set, a video deleted, a participant deleted) or
--   changed: statement triggers on seen_videos add or take away per (participant, set);
-- - a programme created or moved to another set (or participant): a row trigger counts that set's
--   views afresh before the row is written.
-- Anything that loads seen_videos with triggers off (a restore with session_replication_role =
-- replica) must recount it.
-- Proof: db/progress-seen-count.test.ts recounts seen_videos after every kind of change.

create or replace function progress_seen_count_views_added() returns trigger language plpgsql
security definer set search_path = public, pg_temp as $$
begin
  update fitness_participation_progress p set seen_count = p.seen_count + a.n
  from (select participant_id, fitness_video_set_id, count(*)::int as n from added group by 1, 2) a
  where p.participant_id = a.participant_id and p.fitness_video_set_id = a.fitness_video_set_id;
  return null;
end $$;

create or replace function progress_seen_count_views_removed() returns trigger language plpgsql
security definer set search_path = public, pg_temp as $$
begin
  update fitness_participation_progress p set seen_count = p.seen_count - r.n
  from (select participant_id, fitness_video_set_id, count(*)::int as n from removed group by 1, 2) r
  where p.participant_id = r.participant_id and p.fitness_video_set_id = r.fitness_video_set_id;
  return null;
end $$;

create or replace function progress_seen_count_views_changed() returns trigger language plpgsql
security definer set search_path = public, pg_temp as $$
begin
  update fitness_participation_progress p set seen_count = p.seen_count + c.n
  from (
    select participant_id, fitness_video_set_id, sum(delta)::int as n from (
      select participant_id, fitness_video_set_id, -1 as delta from before_rows
      union all
      select participant_id, fitness_video_set_id, 1 from after_rows
    ) moved
    group by 1, 2
    having sum(delta) <> 0
  ) c
  where p.participant_id = c.participant_id and p.fitness_video_set_id = c.fitness_video_set_id;
  return null;
end $$;

create or replace function progress_seen_count_recount() returns trigger language plpgsql
security definer set search_path = public, pg_temp as $$
begin
  new.seen_count := (
    select count(*)::int from seen_videos sv
    where sv.participant_id = new.participant_id and sv.fitness_video_set_id = new.fitness_video_set_id);
  return new;
end $$;

create or replace trigger progress_seen_count_views_insert after insert on seen_videos
  referencing new table as added for each statement execute function progress_seen_count_views_added();

create or replace trigger progress_seen_count_views_delete after delete on seen_videos
  referencing old table as removed for each statement execute function progress_seen_count_views_removed();

create or replace trigger progress_seen_count_views_update after update on seen_videos
  referencing old table as before_rows new table as after_rows
  for each statement execute function progress_seen_count_views_changed();

create or replace trigger progress_seen_count_programme_insert before insert on fitness_participation_progress
  for each row execute function progress_seen_count_recount();

create or replace trigger progress_seen_count_programme_moved before update of participant_id, fitness_video_set_id
  on fitness_participation_progress for each row
  when (old.participant_id is distinct from new.participant_id
        or old.fitness_video_set_id is distinct from new.fitness_video_set_id)
  execute function progress_seen_count_recount();
