-- The daily check wrote every participant's follow-up row every day: the days behind (a mirror of
-- participant_adherence, for the worklist's column) and the count of days missed both grow by one a
-- day for everyone who does not watch, though no reason moves (a participant behind since Monday is
-- still behind since Monday). At 100,000 participants that was about a quarter of the check's time
-- (bench/results.md, issue 41). The row now holds only what the reasons come from:
-- - the missed days are the days they reached 1 and 3 (first_missed_on, third_missed_on), which
--   every writer has kept beside the count since 0021: slightly behind is "reached 1, not 3",
--   behind is "reached 3"; the count itself is dropped;
-- - the worklist reads the days behind from participant_adherence, where the grid reads them, so
--   their mirror here and the trigger that kept it go;
-- - on an update the reasons are derived again only when something they come from changes or a
--   reason's own column is written (a contact's snooze or the assessments due move no reason).
-- Every writer set the count and the two days together, so this changes no row of an instance that
-- has only ever run this code; it makes sure of it before the count goes, so that no row's reasons
-- move with it (a day missing beside its count is taken from the reason's start).
update participant_followup set
  first_missed_on = case when days_missed >= 1
    then coalesce(first_missed_on, (coalesce(slightly_since, behind_since, now()) at time zone 'UTC')::date) end,
  third_missed_on = case when days_missed >= 3
    then coalesce(third_missed_on, (coalesce(behind_since, now()) at time zone 'UTC')::date) end
where (days_missed >= 1) <> (first_missed_on is not null) or (days_missed >= 3) <> (third_missed_on is not null);
--> statement-breakpoint
create or replace function participant_followup_derive() returns trigger language plpgsql as $$
declare
  was_failing timestamptz;
begin
  if tg_op = 'UPDATE' then
    was_failing := old.failing_since;
    -- The tablet's first call since its assignment, and it has no push token.
    if new.token_empty and new.failing_began_at is null
      and new.tablet_called_at >= new.device_assigned_at
      and (old.tablet_called_at is null or old.tablet_called_at < new.device_assigned_at) then
      new.failing_began_at := new.tablet_called_at;
    end if;
  end if;
  new.behind_since := case when new.active and new.has_programme and new.third_missed_on is not null
    then new.third_missed_on::timestamp at time zone 'UTC' end;
  new.slightly_since := case when new.active and new.has_programme and new.first_missed_on is not null
      and new.third_missed_on is null
    then new.first_missed_on::timestamp at time zone 'UTC' end;
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
create or replace function participant_followup_programme_changed() returns trigger language plpgsql
security definer set search_path = public, pg_temp as $$
begin
  if tg_op = 'INSERT' then
    update participant_followup set has_programme = true, first_missed_on = null, third_missed_on = null
    where participant_id = new.participant_id;
  else
    update participant_followup set has_programme = false, finished_at = null, first_missed_on = null,
      third_missed_on = null
    where participant_id = old.participant_id;
  end if;
  return null;
end $$;
--> statement-breakpoint
create or replace function participant_followup_set_changed() returns trigger language plpgsql
security definer set search_path = public, pg_temp as $$
begin
  update participant_followup set finished_at = null, first_missed_on = null, third_missed_on = null
  where participant_id = new.participant_id
    and (finished_at is not null or first_missed_on is not null or third_missed_on is not null);
  return null;
end $$;
--> statement-breakpoint
create or replace trigger participant_followup_derive before insert on participant_followup
  for each row execute function participant_followup_derive();
--> statement-breakpoint
create trigger participant_followup_derive_update before update on participant_followup
  for each row when ((old.active, old.has_device, old.has_programme,
      old.first_missed_on, old.third_missed_on, old.registered_at, old.device_assigned_at, old.tablet_called_at,
      old.token_empty, old.push_failures >= 2, old.failing_began_at, old.finished_at, old.behind_since,
      old.slightly_since, old.silent_from, old.failing_since, old.finished_since, old.not_started_from)
    is distinct from (new.active, new.has_device, new.has_programme,
      new.first_missed_on, new.third_missed_on, new.registered_at, new.device_assigned_at, new.tablet_called_at,
      new.token_empty, new.push_failures >= 2, new.failing_began_at, new.finished_at, new.behind_since,
      new.slightly_since, new.silent_from, new.failing_since, new.finished_since, new.not_started_from))
  execute function participant_followup_derive();
--> statement-breakpoint
drop trigger participant_followup_adherence on participant_adherence;
--> statement-breakpoint
drop function participant_followup_adherence_changed();
--> statement-breakpoint
alter table participant_followup drop column days_missed;
--> statement-breakpoint
alter table participant_followup drop column days_behind;
