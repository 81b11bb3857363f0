-- fitness_video_sets.videos_version: raised in the transaction of every statement that inserts,
-- changes or deletes videos of the set (a thumbnail arriving included), once per set and statement.
-- Tablet call 1 keeps the set's video list in memory under (set, version) and reads the version with
-- the set on every call (modules/device-api/video-cache.ts), so a change made by any web instance is
-- seen by all at once. The version is written under the set row's lock, so a reader that sees
-- version N also sees every video change of the transactions that raised it to N.
-- Proof: modules/device-api/device-api.test.ts ("call 1's video list" follows every change to the
-- set, made in SQL as another web instance would).

create or replace function video_set_version_raise_added() returns trigger language plpgsql
security definer set search_path = public, pg_temp as $$
begin
  update fitness_video_sets s set videos_version = s.videos_version + 1
  where s.fitness_video_set_id in (select distinct fitness_video_set_id from added);
  return null;
end $$;

create or replace function video_set_version_raise_removed() returns trigger language plpgsql
security definer set search_path = public, pg_temp as $$
begin
  update fitness_video_sets s set videos_version = s.videos_version + 1
  where s.fitness_video_set_id in (select distinct fitness_video_set_id from removed);
  return null;
end $$;

create or replace function video_set_version_raise_changed() returns trigger language plpgsql
security definer set search_path = public, pg_temp as $$
begin
  update fitness_video_sets s set videos_version = s.videos_version + 1
  where s.fitness_video_set_id in (
    select fitness_video_set_id from before_rows union select fitness_video_set_id from after_rows
  );
  return null;
end $$;

create or replace trigger video_set_version_insert after insert on videos
  referencing new table as added for each statement execute function video_set_version_raise_added();

create or replace trigger video_set_version_delete after delete on videos
  referencing old table as removed for each statement execute function video_set_version_raise_removed();

create or replace trigger video_set_version_update after update on videos
  referencing old table as before_rows new table as after_rows
  for each statement execute function video_set_version_raise_changed();
