-- participant_followup: one row per participant holding the facts the follow-up worklist's reasons
-- come from (active, device, programme, the days that went by without their video and when they
-- began, the tablet's last call, push failures in a row and when they began, programme finished),
-- and the reasons derived from them in indexed columns (behind_since, slightly_since, silent_from,
-- failing_since, finished_since, not_started_from), so the worklist is a keyset page over an index,
-- never a scan. The facts of other tables are mirrored by the triggers below; the rest are written
-- by the code that learns them: the daily check (the missed days, programme finished), a reported
-- view (the missed days), a tablet's call (plugins/access.ts), push delivery (failures) and a
-- recorded contact (snooze).
-- A reason's start comes from the facts (the day the missed videos reached 1 or 3, held as that
-- day's 00:00 UTC; the first failure of a run); where no fact is kept (rows of an instance upgraded
-- into the worklist) it is the moment the server first saw the reason, and the worklist says "at
-- least since". Times stamped here are kept to the millisecond, as the server's clock and its
-- keyset cursors carry them.
-- Proof: modules/followup/followup.test.ts (each reason at its boundary, its start, the counts
-- beside a walk of the whole list).

-- The reasons, from the row's facts. A token the tablet never registered counts as failing only
-- once the tablet has called: a tablet not yet switched on is "tablet silent" in its time.
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

create or replace trigger participant_followup_derive before insert on participant_followup
  for each row execute function participant_followup_derive();

-- On an update the reasons are derived again only when something they come from changes (a fact,
-- the push failures crossing their threshold) or a reason's own column is written: a contact's
-- snooze or the assessments due write the row without moving a reason.
create or replace trigger participant_followup_derive_update before update on participant_followup
  for each row when ((old.active, old.has_device, old.has_programme,
      old.first_missed_on, old.third_missed_on, old.registered_at, old.device_assigned_at, old.tablet_called_at,
      old.token_empty, old.push_failures >= 2, old.failing_began_at, old.finished_at, old.behind_since,
      old.slightly_since, old.silent_from, old.failing_since, old.finished_since, old.not_started_from)
    is distinct from (new.active, new.has_device, new.has_programme,
      new.first_missed_on, new.third_missed_on, new.registered_at, new.device_assigned_at, new.tablet_called_at,
      new.token_empty, new.push_failures >= 2, new.failing_began_at, new.finished_at, new.behind_since,
      new.slightly_since, new.silent_from, new.failing_since, new.finished_since, new.not_started_from))
  execute function participant_followup_derive();

-- A new participant gets their row in the statement that inserts them.
create or replace function participant_followup_participants_inserted() returns trigger language plpgsql
security definer set search_path = public, pg_temp as $$
begin
  insert into participant_followup (participant_id, site_id, active, has_device, registered_at, device_assigned_at, token_empty)
  select participant_id, site_id, status = 'active', authorized_device_id is not null, date_trunc('milliseconds', created_at),
    case when authorized_device_id is not null then date_trunc('milliseconds', now()) end,
    coalesce(push_notification_id, 'empty') = 'empty'
  from inserted;
  return null;
end $$;

create or replace trigger participant_followup_insert after insert on participants
  referencing new table as inserted for each statement execute function participant_followup_participants_inserted();

-- A new device restarts "never called" from its assignment; a new push token clears the failures
-- counted against the old one; a token cleared (Firebase answered that it is no longer registered)
-- keeps the run's start, or begins one.
create or replace function participant_followup_participant_changed() returns trigger language plpgsql
security definer set search_path = public, pg_temp as $$
begin
  update participant_followup f set
    site_id = new.site_id,
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

create or replace trigger participant_followup_update after update of status, authorized_device_id, push_notification_id, site_id
  on participants for each row
  when (old.status is distinct from new.status
    or old.authorized_device_id is distinct from new.authorized_device_id
    or old.push_notification_id is distinct from new.push_notification_id
    or old.site_id is distinct from new.site_id)
  execute function participant_followup_participant_changed();

-- A programme given or taken away starts the missed days afresh (the daily check, or the view or
-- change that follows in the same transaction, counts them).
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

create or replace trigger participant_followup_programme after insert or delete on fitness_participation_progress
  for each row execute function participant_followup_programme_changed();

-- Another set starts the programme again: it is not finished any more, and nothing is missed yet.
create or replace function participant_followup_set_changed() returns trigger language plpgsql
security definer set search_path = public, pg_temp as $$
begin
  update participant_followup set finished_at = null, first_missed_on = null, third_missed_on = null
  where participant_id = new.participant_id
    and (finished_at is not null or first_missed_on is not null or third_missed_on is not null);
  return null;
end $$;

create or replace trigger participant_followup_set after update of fitness_video_set_id on fitness_participation_progress
  for each row when (old.fitness_video_set_id is distinct from new.fitness_video_set_id)
  execute function participant_followup_set_changed();
