-- participant_tally: the number of participants per adherence class (on track, slightly behind,
-- behind), with or without a programme, and status, as rows of deltas whose sums are those counts.
-- Counting participants on every grid page and dashboard would read every participant; instead
-- each statement appends the change it makes, in its transaction, and reads sum a few rows. Rows are
-- only ever appended (never a shared counter updated), so writers never wait for each other; the
-- daily check folds them (foldParticipantTally in db/participant-tally.ts).
-- Proof: db/participant-tally.test.ts recounts the tally from participants after every kind of change.

-- A new participant counts under their class (participant_adherence's row is made in the same
-- statement) and the status they were inserted with, without a programme.
create or replace function participant_tally_participants_inserted() returns trigger language plpgsql
security definer set search_path = public, pg_temp as $$
begin
  insert into participant_tally (site_id, adherence, with_programme, status, delta)
  select p.site_id, n.adherence, false, p.status, count(*)::int
  from inserted n join participants p on p.participant_id = n.participant_id
  group by p.site_id, n.adherence, p.status;
  return null;
end $$;

-- A change of class (the daily check rewrites days_behind for most participants in one statement)
-- moves each moved participant within their status, with or without their programme: one join of
-- the old and new rows gives both the -1 and the +1.
create or replace function participant_tally_participants_updated() returns trigger language plpgsql
security definer set search_path = public, pg_temp as $$
begin
  insert into participant_tally (site_id, adherence, with_programme, status, delta)
  select moved.site_id, m.adherence, moved.with_programme, moved.status, sum(m.delta)::int
  from (
    select o.adherence as before_class, n.adherence as after_class,
           exists (select 1 from fitness_participation_progress pp where pp.participant_id = n.participant_id) as with_programme,
           p.status, p.site_id
    from before_rows o join after_rows n using (participant_id)
    cross join lateral (select p.status, p.site_id from participants p where p.participant_id = n.participant_id) p
    where o.adherence <> n.adherence
  ) moved
  cross join lateral (values (moved.before_class, -1), (moved.after_class, 1)) as m(adherence, delta)
  group by moved.site_id, m.adherence, moved.with_programme, moved.status
  having sum(m.delta) <> 0;
  return null;
end $$;

-- A participant's delete counts them out where they were, before the cascade removes their
-- programme and class (a BEFORE row trigger still sees both).
create or replace function participant_tally_participant_deleting() returns trigger language plpgsql
security definer set search_path = public, pg_temp as $$
begin
  insert into participant_tally (site_id, adherence, with_programme, status, delta)
  select old.site_id, a.adherence,
         exists (select 1 from fitness_participation_progress pp where pp.participant_id = old.participant_id),
         old.status, -1
  from participant_adherence a where a.participant_id = old.participant_id;
  update video_day_views d set views = d.views - v.n
  from (select (created_at at time zone 'UTC')::date as day, video_id, count(*)::int as n
        from seen_videos where participant_id = old.participant_id group by 1, 2) v
  where d.day = v.day and d.video_id = v.video_id and d.site_id = old.site_id;
  delete from video_day_views d where d.site_id = old.site_id and d.views <= 0;
  return old;
end $$;

-- A programme added or removed moves its participant between "no programme" and "programme" in
-- their class. The join on participants skips a programme removed by its participant's delete (the
-- participant is gone, and was counted out), whichever cascade runs first.
create or replace function participant_tally_programmes_changed() returns trigger language plpgsql
security definer set search_path = public, pg_temp as $$
declare
  sign int := case when tg_op = 'INSERT' then 1 else -1 end;
begin
  insert into participant_tally (site_id, adherence, with_programme, status, delta)
  select p.site_id, a.adherence, v.with_programme, p.status, (v.delta * sign * count(*))::int
  from changed c
  join participants p on p.participant_id = c.participant_id
  join participant_adherence a on a.participant_id = c.participant_id
  cross join (values (false, -1), (true, 1)) as v(with_programme, delta)
  group by p.site_id, a.adherence, p.status, v.with_programme, v.delta;
  return null;
end $$;

-- A discharge or re-referral moves the participant between statuses, in their class and with or
-- without their programme. A row trigger with a WHEN: it runs only when the status changes, never
-- for the tablet's contact-time updates of participants.
create or replace function participant_tally_status_changed() returns trigger language plpgsql
security definer set search_path = public, pg_temp as $$
begin
  insert into participant_tally (site_id, adherence, with_programme, status, delta)
  select new.site_id, a.adherence,
         exists (select 1 from fitness_participation_progress pp where pp.participant_id = new.participant_id),
         v.status, v.delta
  from participant_adherence a
  cross join (values (old.status, -1), (new.status, 1)) as v(status, delta)
  where a.participant_id = new.participant_id;
  return null;
end $$;

create or replace trigger participant_tally_insert after insert on participant_adherence
  referencing new table as inserted for each statement execute function participant_tally_participants_inserted();

create or replace trigger participant_tally_update after update on participant_adherence
  referencing old table as before_rows new table as after_rows
  for each statement execute function participant_tally_participants_updated();

create or replace trigger participant_tally_delete before delete on participants
  for each row execute function participant_tally_participant_deleting();

create or replace trigger participant_tally_programme_insert after insert on fitness_participation_progress
  referencing new table as changed for each statement execute function participant_tally_programmes_changed();

create or replace trigger participant_tally_programme_delete after delete on fitness_participation_progress
  referencing old table as changed for each statement execute function participant_tally_programmes_changed();

create or replace trigger participant_tally_status after update of status on participants
  for each row when (old.status is distinct from new.status)
  execute function participant_tally_status_changed();
