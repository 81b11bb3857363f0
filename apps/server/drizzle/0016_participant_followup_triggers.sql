-- The follow-up worklist's facts (issue 31): the derived reason columns, the mirrors that keep the
-- facts current where they change, and a row for every participant there is. Times stamped here
-- are kept to the millisecond, as the server's clock and its keyset cursors carry them.
create or replace function participant_followup_derive() returns trigger language plpgsql as $$
declare
  was_behind timestamptz;
  was_slightly timestamptz;
  was_failing timestamptz;
begin
  if tg_op = 'UPDATE' then
    was_behind := old.behind_since;
    was_slightly := old.slightly_since;
    was_failing := old.failing_since;
  end if;
  new.behind_since := case when new.active and new.has_programme and new.days_behind >= 3
    then coalesce(was_behind, date_trunc('milliseconds', now())) end;
  new.slightly_since := case when new.active and new.has_programme and new.days_behind between 1 and 2
    then coalesce(was_slightly, date_trunc('milliseconds', now())) end;
  new.silent_from := case when new.active and new.has_device and new.has_programme
    then greatest(new.tablet_called_at, new.device_assigned_at) end;
  new.failing_since := case when new.active and new.has_device and (new.token_empty or new.push_failures >= 2)
    then coalesce(was_failing, date_trunc('milliseconds', now())) end;
  new.finished_since := case when new.active then new.finished_at end;
  new.not_started_from := case when new.active and not (new.has_device and new.has_programme)
    then new.registered_at end;
  return new;
end $$;
--> statement-breakpoint
create trigger participant_followup_derive before insert or update on participant_followup
  for each row execute function participant_followup_derive();
--> statement-breakpoint
-- No writer may change participants, programmes or days behind between the copy and the triggers.
lock table participants, fitness_participation_progress, participant_adherence in share row exclusive mode;
--> statement-breakpoint
insert into participant_followup (participant_id, active, has_device, has_programme, days_behind, registered_at,
  device_assigned_at, tablet_called_at, token_empty)
select p.participant_id, p.status = 'active', p.authorized_device_id is not null,
  exists (select 1 from fitness_participation_progress pp where pp.participant_id = p.participant_id),
  coalesce(a.days_behind, 0), date_trunc('milliseconds', p.created_at),
  case when p.authorized_device_id is not null then date_trunc('milliseconds', coalesce(
    (select max(da.assigned_at) from device_assignments da
     where da.participant_id = p.participant_id and da.unassigned_at is null), p.created_at)) end,
  (select max(t.last_used_at) from device_tokens t
   where t.participant_id = p.participant_id and t.authorized_device_id = p.authorized_device_id),
  coalesce(p.push_notification_id, 'empty') = 'empty'
from participants p left join participant_adherence a on a.participant_id = p.participant_id;
--> statement-breakpoint
-- The worklist's tally (followup_tally): how many have each reason that does not depend on the
-- time of day, counted once here and then changed by the triggers below with every write.
insert into followup_tally (reason, delta)
select r.reason, r.n from (
  select 'listed' as reason, count(*) filter (where behind_since is not null or slightly_since is not null
    or failing_since is not null or finished_since is not null)::int as n from participant_followup
  union all select 'behind', count(*) filter (where behind_since is not null)::int from participant_followup
  union all select 'slightly_behind', count(*) filter (where slightly_since is not null)::int from participant_followup
  union all select 'reminders_failing', count(*) filter (where failing_since is not null)::int from participant_followup
  union all select 'programme_finished', count(*) filter (where finished_since is not null)::int from participant_followup
) r where r.n <> 0;
--> statement-breakpoint
-- One row per reason whose count a statement changed, none when it changed none (a tablet's call
-- or a contact writes no tally row).
create or replace function followup_tally_inserted() returns trigger language plpgsql as $$
begin
  insert into followup_tally (reason, delta)
  select v.reason, v.d
  from (select count(*) filter (where behind_since is not null or slightly_since is not null or failing_since is not null or finished_since is not null)::int as l,
    count(*) filter (where behind_since is not null)::int as be, count(*) filter (where slightly_since is not null)::int as sl,
    count(*) filter (where failing_since is not null)::int as fa, count(*) filter (where finished_since is not null)::int as fi from after_rows) n, (select 0 as l, 0 as be, 0 as sl, 0 as fa, 0 as fi) o,
    lateral (values ('listed', n.l - o.l), ('behind', n.be - o.be), ('slightly_behind', n.sl - o.sl),
      ('reminders_failing', n.fa - o.fa), ('programme_finished', n.fi - o.fi)) v(reason, d)
  where v.d <> 0;
  return null;
end $$;
--> statement-breakpoint
create or replace function followup_tally_updated() returns trigger language plpgsql as $$
begin
  insert into followup_tally (reason, delta)
  select v.reason, v.d
  from (select count(*) filter (where behind_since is not null or slightly_since is not null or failing_since is not null or finished_since is not null)::int as l,
    count(*) filter (where behind_since is not null)::int as be, count(*) filter (where slightly_since is not null)::int as sl,
    count(*) filter (where failing_since is not null)::int as fa, count(*) filter (where finished_since is not null)::int as fi from after_rows) n, (select count(*) filter (where behind_since is not null or slightly_since is not null or failing_since is not null or finished_since is not null)::int as l,
    count(*) filter (where behind_since is not null)::int as be, count(*) filter (where slightly_since is not null)::int as sl,
    count(*) filter (where failing_since is not null)::int as fa, count(*) filter (where finished_since is not null)::int as fi from before_rows) o,
    lateral (values ('listed', n.l - o.l), ('behind', n.be - o.be), ('slightly_behind', n.sl - o.sl),
      ('reminders_failing', n.fa - o.fa), ('programme_finished', n.fi - o.fi)) v(reason, d)
  where v.d <> 0;
  return null;
end $$;
--> statement-breakpoint
create or replace function followup_tally_deleted() returns trigger language plpgsql as $$
begin
  insert into followup_tally (reason, delta)
  select v.reason, v.d
  from (select 0 as l, 0 as be, 0 as sl, 0 as fa, 0 as fi) n, (select count(*) filter (where behind_since is not null or slightly_since is not null or failing_since is not null or finished_since is not null)::int as l,
    count(*) filter (where behind_since is not null)::int as be, count(*) filter (where slightly_since is not null)::int as sl,
    count(*) filter (where failing_since is not null)::int as fa, count(*) filter (where finished_since is not null)::int as fi from before_rows) o,
    lateral (values ('listed', n.l - o.l), ('behind', n.be - o.be), ('slightly_behind', n.sl - o.sl),
      ('reminders_failing', n.fa - o.fa), ('programme_finished', n.fi - o.fi)) v(reason, d)
  where v.d <> 0;
  return null;
end $$;
--> statement-breakpoint
create trigger followup_tally_insert after insert on participant_followup
  referencing new table as after_rows for each statement execute function followup_tally_inserted();
--> statement-breakpoint
create trigger followup_tally_update after update on participant_followup
  referencing old table as before_rows new table as after_rows for each statement execute function followup_tally_updated();
--> statement-breakpoint
create trigger followup_tally_delete after delete on participant_followup
  referencing old table as before_rows for each statement execute function followup_tally_deleted();
--> statement-breakpoint
create or replace function participant_followup_participants_inserted() returns trigger language plpgsql as $$
begin
  insert into participant_followup (participant_id, active, has_device, registered_at, device_assigned_at, token_empty)
  select participant_id, status = 'active', authorized_device_id is not null, date_trunc('milliseconds', created_at),
    case when authorized_device_id is not null then date_trunc('milliseconds', now()) end,
    coalesce(push_notification_id, 'empty') = 'empty'
  from inserted;
  return null;
end $$;
--> statement-breakpoint
create trigger participant_followup_insert after insert on participants
  referencing new table as inserted for each statement execute function participant_followup_participants_inserted();
--> statement-breakpoint
-- A new device restarts "never called" from its assignment; a new push token clears the failures
-- counted against the old one.
create or replace function participant_followup_participant_changed() returns trigger language plpgsql as $$
begin
  update participant_followup f set
    active = new.status = 'active',
    has_device = new.authorized_device_id is not null,
    device_assigned_at = case
      when new.authorized_device_id is null then null
      when new.authorized_device_id is distinct from old.authorized_device_id then date_trunc('milliseconds', now())
      else f.device_assigned_at end,
    token_empty = coalesce(new.push_notification_id, 'empty') = 'empty',
    push_failures = case when new.push_notification_id is distinct from old.push_notification_id then 0
      else f.push_failures end
  where f.participant_id = new.participant_id;
  return null;
end $$;
--> statement-breakpoint
create trigger participant_followup_update after update of status, authorized_device_id, push_notification_id
  on participants for each row
  when (old.status is distinct from new.status
    or old.authorized_device_id is distinct from new.authorized_device_id
    or old.push_notification_id is distinct from new.push_notification_id)
  execute function participant_followup_participant_changed();
--> statement-breakpoint
create or replace function participant_followup_programme_changed() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    update participant_followup set has_programme = true where participant_id = new.participant_id;
  else
    update participant_followup set has_programme = false, finished_at = null where participant_id = old.participant_id;
  end if;
  return null;
end $$;
--> statement-breakpoint
create trigger participant_followup_programme after insert or delete on fitness_participation_progress
  for each row execute function participant_followup_programme_changed();
--> statement-breakpoint
-- Another set starts the programme again: it is not finished any more.
create or replace function participant_followup_set_changed() returns trigger language plpgsql as $$
begin
  update participant_followup set finished_at = null where participant_id = new.participant_id and finished_at is not null;
  return null;
end $$;
--> statement-breakpoint
create trigger participant_followup_set after update of fitness_video_set_id on fitness_participation_progress
  for each row when (old.fitness_video_set_id is distinct from new.fitness_video_set_id)
  execute function participant_followup_set_changed();
--> statement-breakpoint
-- The daily check changes days_behind for many participants in one statement: one update here.
create or replace function participant_followup_adherence_changed() returns trigger language plpgsql as $$
begin
  update participant_followup f set days_behind = n.days_behind
  from after_rows n
  where f.participant_id = n.participant_id and f.days_behind <> n.days_behind;
  return null;
end $$;
--> statement-breakpoint
create trigger participant_followup_adherence after update on participant_adherence
  referencing new table as after_rows for each statement execute function participant_followup_adherence_changed();
