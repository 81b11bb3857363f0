-- Organisations and sites kept apart by the database itself (docs/security.md, "Organisations,
-- sites and who sees what"). The application's statements run as pathway_staff, a role that owns
-- nothing, with the scope of their request or job set for their transaction (apps/server/src/db/
-- scope.ts); row-level security policies on every table with organisation data read it. The
-- tables' owner (this migration's user) is not subject to them: the triggers that keep derived
-- data (tallies, rollups, mirrors) run as the owner (security definer) and take each row's site
-- from the rows themselves, never from the scope, so they stay true whoever's statement fired them.
--
-- 1. The role. Roles belong to the cluster: several databases (test databases made at once, or
-- two instances in one cluster) share it, so it is made once, whoever gets there first.
do $$
begin
  if not exists (select 1 from pg_roles where rolname = 'pathway_staff') then
    begin
      create role pathway_staff nologin;
    exception when duplicate_object or unique_violation then
      null;
    end;
  end if;
  if not pg_has_role(current_user, 'pathway_staff', 'member') then
    begin
      execute format('grant pathway_staff to %I', current_user);
    exception when duplicate_object or unique_violation then
      null;
    end;
  end if;
end $$;
--> statement-breakpoint
-- 2. The scope of the transaction, as the policies read it: each is read once per statement where
-- a policy writes it as a sub-select, (select pathway_sites()). Unset (or set by an earlier
-- transaction of the session, which leaves the empty text), it is null: no rows.
create or replace function pathway_scope() returns text language sql stable
as $$ select nullif(current_setting('pathway.scope', true), '') $$;
--> statement-breakpoint
create or replace function pathway_organisation() returns integer language sql stable
as $$ select nullif(current_setting('pathway.organisation', true), '')::integer $$;
--> statement-breakpoint
create or replace function pathway_sites() returns integer[] language sql stable
as $$ select nullif(current_setting('pathway.sites', true), '')::integer[] $$;
--> statement-breakpoint
create or replace function pathway_every_site() returns boolean language sql stable
as $$ select coalesce(nullif(current_setting('pathway.every_site', true), '')::boolean, false) $$;
--> statement-breakpoint
create or replace function pathway_system_administrator() returns boolean language sql stable
as $$ select coalesce(nullif(current_setting('pathway.system_administrator', true), '')::boolean, false) $$;
--> statement-breakpoint
-- 3. The columns. Derived tables that can be counted again from their rows are emptied here and
-- filled below by site; the two histories that cannot (views per day as they were recorded, the
-- daily check's counts) stay whole, with the instance's first site.
delete from participant_tally;
--> statement-breakpoint
delete from followup_tally;
--> statement-breakpoint
delete from video_day_views;
--> statement-breakpoint
delete from programme_week_completions;
--> statement-breakpoint
delete from programme_week_totals;
--> statement-breakpoint
delete from programme_starts;
--> statement-breakpoint
delete from report_cohort;
--> statement-breakpoint
ALTER TABLE "participant_tally" ADD COLUMN "site_id" integer NOT NULL;--> statement-breakpoint
ALTER TABLE "followup_tally" ADD COLUMN "site_id" integer NOT NULL;--> statement-breakpoint
DROP INDEX "followup_tally_reason_idx";--> statement-breakpoint
CREATE INDEX "followup_tally_reason_idx" ON "followup_tally" USING btree ("reason","site_id","delta");--> statement-breakpoint
ALTER TABLE "video_day_views" DROP CONSTRAINT "video_day_views_day_video_id_pk";--> statement-breakpoint
ALTER TABLE "video_day_views" ADD COLUMN "site_id" integer NOT NULL;--> statement-breakpoint
ALTER TABLE "video_day_views" ADD CONSTRAINT "video_day_views_day_video_id_site_id_pk" PRIMARY KEY("day","video_id","site_id");--> statement-breakpoint
ALTER TABLE "report_cohort" ADD COLUMN "site_id" integer NOT NULL;--> statement-breakpoint
ALTER TABLE "programme_starts" DROP CONSTRAINT "programme_starts_key";--> statement-breakpoint
ALTER TABLE "programme_starts" ADD COLUMN "site_id" integer NOT NULL;--> statement-breakpoint
ALTER TABLE "programme_starts" ADD CONSTRAINT "programme_starts_key" UNIQUE NULLS NOT DISTINCT("site_id","fitness_video_set_id","started_on","discharge_week");--> statement-breakpoint
ALTER TABLE "programme_week_completions" DROP CONSTRAINT "programme_week_completions_day_fitness_video_set_id_week_number_started_on_pk";--> statement-breakpoint
ALTER TABLE "programme_week_completions" ADD COLUMN "site_id" integer NOT NULL;--> statement-breakpoint
ALTER TABLE "programme_week_completions" ADD CONSTRAINT "programme_week_completions_day_site_id_fitness_video_set_id_week_number_started_on_pk" PRIMARY KEY("day","site_id","fitness_video_set_id","week_number","started_on");--> statement-breakpoint
ALTER TABLE "programme_week_totals" DROP CONSTRAINT "programme_week_totals_fitness_video_set_id_week_number_started_on_pk";--> statement-breakpoint
ALTER TABLE "programme_week_totals" ADD COLUMN "site_id" integer NOT NULL;--> statement-breakpoint
ALTER TABLE "programme_week_totals" ADD CONSTRAINT "programme_week_totals_site_id_fitness_video_set_id_week_number_started_on_pk" PRIMARY KEY("site_id","fitness_video_set_id","week_number","started_on");--> statement-breakpoint
alter type programme_week_event add attribute site_id integer;
--> statement-breakpoint
-- The histories, and participant_followup's mirror of participants.site_id, are added with the
-- first site as their default (no rewrite), which is then dropped.
do $$
declare
  first_site integer := (select min(site_id) from sites);
begin
  execute format('alter table daily_views add column site_id integer not null default %s', first_site);
  execute format('alter table adherence_history add column site_id integer not null default %s', first_site);
  execute format('alter table participant_followup add column site_id integer not null default %s', first_site);
  execute format('alter table device_sign_ins add column organisation_id integer not null default %s',
    (select organisation_id from sites where site_id = first_site));
  execute format('alter table video_uploads add column organisation_id integer not null default %s',
    (select organisation_id from sites where site_id = first_site));
end $$;
--> statement-breakpoint
ALTER TABLE "daily_views" ALTER COLUMN "site_id" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "adherence_history" ALTER COLUMN "site_id" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "participant_followup" ALTER COLUMN "site_id" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "device_sign_ins" ALTER COLUMN "organisation_id" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "video_uploads" ALTER COLUMN "organisation_id" SET DEFAULT pathway_organisation();--> statement-breakpoint
ALTER TABLE "daily_views" DROP CONSTRAINT "daily_views_pkey";--> statement-breakpoint
ALTER TABLE "daily_views" ADD CONSTRAINT "daily_views_day_site_id_pk" PRIMARY KEY("day","site_id");--> statement-breakpoint
ALTER TABLE "adherence_history" DROP CONSTRAINT "adherence_history_pkey";--> statement-breakpoint
ALTER TABLE "adherence_history" ADD CONSTRAINT "adherence_history_day_site_id_pk" PRIMARY KEY("day","site_id");--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "organisation_id" integer DEFAULT pathway_organisation();--> statement-breakpoint
-- The audit trail and tablet sign-ins until now were the one organisation's.
update audit_events set organisation_id = (select organisation_id from sites order by site_id limit 1);
--> statement-breakpoint
lock table participants, participant_followup, fitness_participation_progress, participant_adherence,
  seen_videos, seen_weeks, videos, device_assignments in share row exclusive mode;
--> statement-breakpoint
alter table participant_followup disable trigger user;
--> statement-breakpoint
update participant_followup f set site_id = p.site_id
from participants p where p.participant_id = f.participant_id and f.site_id <> p.site_id;
--> statement-breakpoint
alter table participant_followup enable trigger user;
--> statement-breakpoint
update device_sign_ins s set organisation_id = d.organisation_id
from authorized_devices d where d.authorized_device_id = s.authorized_device_id and s.organisation_id <> d.organisation_id;
--> statement-breakpoint
ALTER TABLE "authorized_devices" ADD COLUMN "site_id" integer;--> statement-breakpoint
update authorized_devices d set site_id = p.site_id
from participants p where p.authorized_device_id = d.authorized_device_id;
--> statement-breakpoint
-- 4. The derived data by site. Each function keeps what it kept, per site now; a participant's
-- site is read from participants (the owner reads them all).
create or replace function participant_tally_participants_inserted() returns trigger language plpgsql
security definer set search_path = public, pg_temp as $$
begin
  insert into participant_tally (site_id, adherence, with_programme, status, delta)
  select p.site_id, n.adherence, false, p.status, count(*)::int
  from inserted n join participants p on p.participant_id = n.participant_id
  group by p.site_id, n.adherence, p.status;
  return null;
end $$;
--> statement-breakpoint
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
--> statement-breakpoint
-- A participant deleted is counted out before the cascade removes their rows (their class is
-- still in participant_adherence, their views in seen_videos); the statement triggers the cascade
-- fires then find no participant and count nothing twice.
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
--> statement-breakpoint
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
--> statement-breakpoint
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
--> statement-breakpoint
-- A transfer: the participant's counts and views go with them to the new site (their follow-up
-- row follows by its mirror, their cohort by report_cohort_participant_update; the daily check's
-- history stays as it was counted, and views per day are moved by the transfer itself, which
-- knows the programme's time zone).
create or replace function participant_site_changed() returns trigger language plpgsql
security definer set search_path = public, pg_temp as $$
begin
  insert into participant_tally (site_id, adherence, with_programme, status, delta)
  select v.site_id, a.adherence,
         exists (select 1 from fitness_participation_progress pp where pp.participant_id = new.participant_id),
         new.status, v.delta
  from participant_adherence a
  cross join (values (old.site_id, -1), (new.site_id, 1)) as v(site_id, delta)
  where a.participant_id = new.participant_id;
  insert into video_day_views as d (day, video_id, site_id, views)
  select w.day, w.video_id, v.site_id, w.n * v.sign
  from (select (created_at at time zone 'UTC')::date as day, video_id, count(*)::int as n
        from seen_videos where participant_id = new.participant_id group by 1, 2) w
  cross join (values (old.site_id, -1), (new.site_id, 1)) as v(site_id, sign)
  on conflict (day, video_id, site_id) do update set views = d.views + excluded.views;
  delete from video_day_views d where d.site_id = old.site_id and d.views <= 0;
  return null;
end $$;
--> statement-breakpoint
-- A device is its holder's site's while it is assigned (a participant's tablet is seen with them),
-- the organisation's when it is not.
create or replace function device_holder_site() returns trigger language plpgsql
security definer set search_path = public, pg_temp as $$
begin
  if tg_op in ('UPDATE', 'DELETE') and old.authorized_device_id is not null
     and (tg_op = 'DELETE' or old.authorized_device_id is distinct from new.authorized_device_id) then
    update authorized_devices set site_id = null where authorized_device_id = old.authorized_device_id;
  end if;
  if tg_op in ('INSERT', 'UPDATE') and new.authorized_device_id is not null then
    update authorized_devices set site_id = new.site_id
    where authorized_device_id = new.authorized_device_id and site_id is distinct from new.site_id;
  end if;
  return null;
end $$;
--> statement-breakpoint
create trigger device_holder_site after insert or delete or update of authorized_device_id, site_id on participants
  for each row execute function device_holder_site();
--> statement-breakpoint
create trigger participant_site_changed after update of site_id on participants
  for each row when (old.site_id is distinct from new.site_id)
  execute function participant_site_changed();
--> statement-breakpoint
-- The follow-up worklist's facts carry the participant's site, and its tally counts per site.
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
--> statement-breakpoint
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
--> statement-breakpoint
drop trigger participant_followup_update on participants;
--> statement-breakpoint
create trigger participant_followup_update after update of status, authorized_device_id, push_notification_id, site_id
  on participants for each row
  when (old.status is distinct from new.status
    or old.authorized_device_id is distinct from new.authorized_device_id
    or old.push_notification_id is distinct from new.push_notification_id
    or old.site_id is distinct from new.site_id)
  execute function participant_followup_participant_changed();
--> statement-breakpoint
-- One row per site and reason whose count a statement changed, none when it changed none (a
-- tablet's call or a contact writes no tally row).
create or replace function followup_tally_inserted() returns trigger language plpgsql
security definer set search_path = public, pg_temp as $$
begin
  insert into followup_tally (site_id, reason, delta)
  select site_id, reason, delta from (
    select site_id, v.reason, v.n * 1 as delta
    from (select site_id,
      count(*) filter (where behind_since is not null or slightly_since is not null or failing_since is not null or finished_since is not null)::int as l,
      count(*) filter (where behind_since is not null)::int as be, count(*) filter (where slightly_since is not null)::int as sl,
      count(*) filter (where failing_since is not null)::int as fa, count(*) filter (where finished_since is not null)::int as fi
      from after_rows group by site_id) c,
    lateral (values ('listed', c.l), ('behind', c.be), ('slightly_behind', c.sl), ('reminders_failing', c.fa),
      ('programme_finished', c.fi)) v(reason, n)
  ) d where delta <> 0;
  return null;
end $$;
--> statement-breakpoint
create or replace function followup_tally_updated() returns trigger language plpgsql
security definer set search_path = public, pg_temp as $$
begin
  insert into followup_tally (site_id, reason, delta)
  select site_id, reason, sum(delta)::int from (
    select site_id, v.reason, v.n * 1 as delta
    from (select site_id,
      count(*) filter (where behind_since is not null or slightly_since is not null or failing_since is not null or finished_since is not null)::int as l,
      count(*) filter (where behind_since is not null)::int as be, count(*) filter (where slightly_since is not null)::int as sl,
      count(*) filter (where failing_since is not null)::int as fa, count(*) filter (where finished_since is not null)::int as fi
      from after_rows group by site_id) c,
    lateral (values ('listed', c.l), ('behind', c.be), ('slightly_behind', c.sl), ('reminders_failing', c.fa),
      ('programme_finished', c.fi)) v(reason, n)
    union all
    select site_id, v.reason, v.n * -1 as delta
    from (select site_id,
      count(*) filter (where behind_since is not null or slightly_since is not null or failing_since is not null or finished_since is not null)::int as l,
      count(*) filter (where behind_since is not null)::int as be, count(*) filter (where slightly_since is not null)::int as sl,
      count(*) filter (where failing_since is not null)::int as fa, count(*) filter (where finished_since is not null)::int as fi
      from before_rows group by site_id) c,
    lateral (values ('listed', c.l), ('behind', c.be), ('slightly_behind', c.sl), ('reminders_failing', c.fa),
      ('programme_finished', c.fi)) v(reason, n)
  ) d
  group by site_id, reason
  having sum(delta) <> 0;
  return null;
end $$;
--> statement-breakpoint
create or replace function followup_tally_deleted() returns trigger language plpgsql
security definer set search_path = public, pg_temp as $$
begin
  insert into followup_tally (site_id, reason, delta)
  select site_id, reason, delta from (
    select site_id, v.reason, v.n * -1 as delta
    from (select site_id,
      count(*) filter (where behind_since is not null or slightly_since is not null or failing_since is not null or finished_since is not null)::int as l,
      count(*) filter (where behind_since is not null)::int as be, count(*) filter (where slightly_since is not null)::int as sl,
      count(*) filter (where failing_since is not null)::int as fa, count(*) filter (where finished_since is not null)::int as fi
      from before_rows group by site_id) c,
    lateral (values ('listed', c.l), ('behind', c.be), ('slightly_behind', c.sl), ('reminders_failing', c.fa),
      ('programme_finished', c.fi)) v(reason, n)
  ) d where delta <> 0;
  return null;
end $$;
--> statement-breakpoint
-- Views per video, UTC day and the viewer's site (seen_weeks stays per participant). A removed
-- view whose participant is gone was counted out when they were deleted.
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
--> statement-breakpoint
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
--> statement-breakpoint
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
--> statement-breakpoint
-- Where people stop, by site: a cohort row carries its participant's site, and every count made
-- from it (starts, week completions) is that site's.
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
--> statement-breakpoint
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
--> statement-breakpoint
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
--> statement-breakpoint
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
--> statement-breakpoint
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
--> statement-breakpoint
drop trigger report_cohort_participant_update on participants;
--> statement-breakpoint
create trigger report_cohort_participant_update
  after update of authorized_device_id, discharged_on, site_id on participants
  for each row when (old.authorized_device_id is distinct from new.authorized_device_id
    or old.discharged_on is distinct from new.discharged_on
    or old.site_id is distinct from new.site_id)
  execute function report_cohort_row_changed();
--> statement-breakpoint
-- Every other function that keeps derived data runs as the owner too: a change to a shared video
-- set, or a cascade from one, reaches every organisation's participants. The follow-up row's
-- derivation only reads its own row and stays the invoker's.
do $$
declare
  f regprocedure;
begin
  for f in
    select p.oid::regprocedure from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = 'public' and p.prorettype = 'trigger'::regtype and not p.prosecdef
      and p.proname <> 'participant_followup_derive'
  loop
    execute format('alter function %s security definer set search_path = public, pg_temp', f);
  end loop;
  for f in
    select p.oid::regprocedure from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = 'public' and p.proname in ('seen_week_completion', 'seen_weeks_complete') and not p.prosecdef
  loop
    execute format('alter function %s security definer set search_path = public, pg_temp', f);
  end loop;
end $$;
--> statement-breakpoint
-- 5. The derived data counted again, by site.
insert into participant_tally (site_id, adherence, with_programme, status, delta)
select p.site_id, a.adherence, pp.participant_id is not null, p.status, count(*)::int
from participant_adherence a
join participants p on p.participant_id = a.participant_id
left join fitness_participation_progress pp on pp.participant_id = a.participant_id
group by 1, 2, 3, 4;
--> statement-breakpoint
insert into followup_tally (site_id, reason, delta)
select site_id, reason, delta from (
  select site_id, v.reason, v.n * 1 as delta
    from (select site_id,
      count(*) filter (where behind_since is not null or slightly_since is not null or failing_since is not null or finished_since is not null)::int as l,
      count(*) filter (where behind_since is not null)::int as be, count(*) filter (where slightly_since is not null)::int as sl,
      count(*) filter (where failing_since is not null)::int as fa, count(*) filter (where finished_since is not null)::int as fi
      from participant_followup group by site_id) c,
    lateral (values ('listed', c.l), ('behind', c.be), ('slightly_behind', c.sl), ('reminders_failing', c.fa),
      ('programme_finished', c.fi)) v(reason, n)
) d where delta <> 0;
--> statement-breakpoint
insert into video_day_views (day, video_id, site_id, views)
select (sv.created_at at time zone 'UTC')::date, sv.video_id, p.site_id, count(*)::int
from seen_videos sv join participants p on p.participant_id = sv.participant_id
group by 1, 2, 3;
--> statement-breakpoint
insert into report_cohort
select * from report_cohort_of(array(select participant_id from fitness_participation_progress));
--> statement-breakpoint
insert into programme_starts (site_id, fitness_video_set_id, started_on, discharge_week, participants)
select site_id, fitness_video_set_id, started_on, discharge_week, count(*)::int from report_cohort group by 1, 2, 3, 4;
--> statement-breakpoint
select programme_weeks_rebuild();
--> statement-breakpoint
-- 6. What a system administrator reads of other organisations: counts, never a participant record.
create or replace function organisation_participant_counts() returns table (organisation_id integer, participants integer)
language sql stable security definer set search_path = public, pg_temp as $$
  select s.organisation_id, coalesce(sum(t.delta), 0)::int
  from participant_tally t join sites s on s.site_id = t.site_id
  where pathway_system_administrator() or pathway_scope() = 'instance' or s.organisation_id = pathway_organisation()
  group by s.organisation_id
$$;
--> statement-breakpoint
-- 7. The policies (and the role's privileges, for every table and those a later migration makes).
grant usage on schema public to pathway_staff;
--> statement-breakpoint
grant select, insert, update, delete on all tables in schema public to pathway_staff;
--> statement-breakpoint
grant usage, select on all sequences in schema public to pathway_staff;
--> statement-breakpoint
alter default privileges in schema public grant select, insert, update, delete on tables to pathway_staff;
--> statement-breakpoint
alter default privileges in schema public grant usage, select on sequences to pathway_staff;
--> statement-breakpoint
-- The sealed secrets are read at start, by the owner, and by nothing a request runs.
revoke all on server_secrets from pathway_staff;
--> statement-breakpoint
alter table organisations enable row level security;
--> statement-breakpoint
create policy organisations_read on organisations for select using (
  (select pathway_scope()) = 'instance' or (select pathway_system_administrator())
  or organisation_id = (select pathway_organisation()));
--> statement-breakpoint
create policy organisations_insert on organisations for insert with check (
  (select pathway_scope()) = 'instance' or (select pathway_system_administrator()));
--> statement-breakpoint
create policy organisations_update on organisations for update using (
  (select pathway_scope()) = 'instance' or (select pathway_system_administrator()));
--> statement-breakpoint
alter table sites enable row level security;
--> statement-breakpoint
create policy sites_read on sites for select using (
  (select pathway_scope()) = 'instance' or (select pathway_system_administrator())
  or organisation_id = (select pathway_organisation()));
--> statement-breakpoint
create policy sites_insert on sites for insert with check (
  (select pathway_scope()) = 'instance' or (select pathway_system_administrator()));
--> statement-breakpoint
create policy sites_update on sites for update using (
  (select pathway_scope()) = 'instance' or (select pathway_system_administrator()));
--> statement-breakpoint
alter table admin_users enable row level security;
--> statement-breakpoint
create policy admin_users_scope on admin_users using (
  (select pathway_scope()) = 'instance' or (select pathway_system_administrator())
  or organisation_id = (select pathway_organisation()));
--> statement-breakpoint
alter table sessions enable row level security;
--> statement-breakpoint
create policy sessions_scope on sessions using (
  (select pathway_scope()) = 'instance'
  or exists (select 1 from admin_users a where a.admin_user_id = sessions.admin_user_id));
--> statement-breakpoint
alter table login_throttle enable row level security;
--> statement-breakpoint
-- A sign-in lock is seen by those who manage its admin: of every site, or of the sites the admin
-- is limited to.
create policy login_throttle_scope on login_throttle using (
  (select pathway_scope()) = 'instance' or (select pathway_system_administrator())
  or exists (select 1 from admin_users a where lower(a.user_name) = login_throttle.user_name
    and ((select pathway_every_site())
      or (cardinality(a.site_ids) > 0 and a.site_ids <@ (select pathway_sites())::integer[]))));
--> statement-breakpoint
alter table authorized_devices enable row level security;
--> statement-breakpoint
create policy authorized_devices_scope on authorized_devices using (
  (select pathway_scope()) = 'instance'
  or (organisation_id = (select pathway_organisation())
    and (site_id is null or site_id = any ((select pathway_sites())::integer[]))));
--> statement-breakpoint
alter table fitness_video_sets enable row level security;
--> statement-breakpoint
create policy fitness_video_sets_read on fitness_video_sets for select using (
  (select pathway_scope()) = 'instance' or shared or organisation_id = (select pathway_organisation()));
--> statement-breakpoint
create policy fitness_video_sets_insert on fitness_video_sets for insert with check (
  (select pathway_scope()) = 'instance'
  or (organisation_id = (select pathway_organisation()) and (not shared or (select pathway_system_administrator()))));
--> statement-breakpoint
create policy fitness_video_sets_update on fitness_video_sets for update using (
  (select pathway_scope()) = 'instance'
  or (organisation_id = (select pathway_organisation()) and not shared)
  or (shared and (select pathway_system_administrator())))
  with check (
  (select pathway_scope()) = 'instance'
  or (organisation_id = (select pathway_organisation()) and not shared)
  or (select pathway_system_administrator()));
--> statement-breakpoint
create policy fitness_video_sets_delete on fitness_video_sets for delete using (
  (select pathway_scope()) = 'instance'
  or (organisation_id = (select pathway_organisation()) and not shared)
  or (shared and (select pathway_system_administrator())));
--> statement-breakpoint
alter table videos enable row level security;
--> statement-breakpoint
create policy videos_read on videos for select using (
  (select pathway_scope()) = 'instance'
  or exists (select 1 from fitness_video_sets s where s.fitness_video_set_id = videos.fitness_video_set_id));
--> statement-breakpoint
create policy videos_change on videos for all using (
  (select pathway_scope()) = 'instance'
  or exists (select 1 from fitness_video_sets s where s.fitness_video_set_id = videos.fitness_video_set_id
    and (not s.shared or (select pathway_system_administrator()))));
--> statement-breakpoint
-- A video set's assessment schedule is seen and changed with the set.
alter table assessment_schedules enable row level security;
--> statement-breakpoint
create policy assessment_schedules_read on assessment_schedules for select using (
  (select pathway_scope()) = 'instance'
  or exists (select 1 from fitness_video_sets s where s.fitness_video_set_id = assessment_schedules.fitness_video_set_id));
--> statement-breakpoint
create policy assessment_schedules_change on assessment_schedules for all using (
  (select pathway_scope()) = 'instance'
  or exists (select 1 from fitness_video_sets s where s.fitness_video_set_id = assessment_schedules.fitness_video_set_id
    and (not s.shared or (select pathway_system_administrator()))));
--> statement-breakpoint
alter table video_uploads enable row level security;
--> statement-breakpoint
create policy video_uploads_scope on video_uploads using (
  (select pathway_scope()) = 'instance' or organisation_id = (select pathway_organisation()));
--> statement-breakpoint
-- A participant is their site's: added, read, changed and transferred among the sites the scope
-- sees.
alter table participants enable row level security;
--> statement-breakpoint
create policy participants_scope on participants using (
  (select pathway_scope()) = 'instance' or site_id = any ((select pathway_sites())::integer[]));
--> statement-breakpoint
alter table participant_followup enable row level security;
--> statement-breakpoint
create policy participant_followup_scope on participant_followup using (
  (select pathway_scope()) = 'instance' or site_id = any ((select pathway_sites())::integer[]));
--> statement-breakpoint
alter table report_cohort enable row level security;
--> statement-breakpoint
create policy report_cohort_scope on report_cohort using (
  (select pathway_scope()) = 'instance' or site_id = any ((select pathway_sites())::integer[]));
--> statement-breakpoint
-- Everything a participant has is seen with them: the rows of a participant the scope sees.
do $$
declare
  t text;
begin
  foreach t in array array['participant_adherence', 'fitness_participation_progress', 'seen_videos',
    'seen_weeks', 'device_tokens', 'device_assignments', 'participant_contacts', 'push_outbox',
    'assessment_results']
  loop
    execute format('alter table %I enable row level security', t);
    execute format($p$create policy %I on %I using (
      (select pathway_scope()) = 'instance'
      or exists (select 1 from participants p where p.participant_id = %I.participant_id))$p$,
      t || '_scope', t, t);
  end loop;
end $$;
--> statement-breakpoint
-- A tablet's sign-ins are its organisation's, and with a participant, seen with them.
alter table device_sign_ins enable row level security;
--> statement-breakpoint
create policy device_sign_ins_scope on device_sign_ins using (
  (select pathway_scope()) = 'instance'
  or (organisation_id = (select pathway_organisation())
    and (participant_id is null or exists (select 1 from participants p where p.participant_id = device_sign_ins.participant_id))));
--> statement-breakpoint
-- The audit trail is the organisation's, read by its admins of every site; the instance's own
-- events (no organisation: organisations and sites managed, a sign-in under an unknown name) by
-- system administrators. Anyone in the organisation writes to it, a system administrator to any
-- (their changes to another organisation's admins are that organisation's record).
alter table audit_events enable row level security;
--> statement-breakpoint
create policy audit_events_read on audit_events for select using (
  (select pathway_scope()) = 'instance'
  or (organisation_id = (select pathway_organisation()) and (select pathway_every_site()))
  or (organisation_id is null and (select pathway_system_administrator())));
--> statement-breakpoint
create policy audit_events_insert on audit_events for insert with check (
  (select pathway_scope()) = 'instance' or (select pathway_system_administrator())
  or organisation_id = (select pathway_organisation()));
--> statement-breakpoint
create policy audit_events_delete on audit_events for delete using ((select pathway_scope()) = 'instance');
--> statement-breakpoint
-- Counts by site are read by the site's staff; they are written by the triggers above (as the
-- owner), by the daily jobs and by the writes that keep them (a view, a transfer), within the
-- organisation.
do $$
declare
  t text;
begin
  foreach t in array array['participant_tally', 'followup_tally', 'daily_views', 'video_day_views',
    'adherence_history', 'programme_starts', 'programme_week_completions', 'programme_week_totals']
  loop
    execute format('alter table %I enable row level security', t);
    execute format($p$create policy %I on %I for select using (
      (select pathway_scope()) = 'instance' or site_id = any ((select pathway_sites())::integer[]))$p$, t || '_read', t);
    execute format($p$create policy %I on %I for insert with check (
      (select pathway_scope()) = 'instance'
      or site_id in (select s.site_id from sites s where s.organisation_id = (select pathway_organisation())))$p$,
      t || '_insert', t);
    execute format($p$create policy %I on %I for update using (
      (select pathway_scope()) = 'instance'
      or site_id in (select s.site_id from sites s where s.organisation_id = (select pathway_organisation())))$p$,
      t || '_update', t);
    execute format($p$create policy %I on %I for delete using (
      (select pathway_scope()) = 'instance'
      or site_id in (select s.site_id from sites s where s.organisation_id = (select pathway_organisation())))$p$,
      t || '_delete', t);
  end loop;
end $$;
