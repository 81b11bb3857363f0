-- The scope of a transaction and what follows a participant from site to site. The application's
-- statements run as pathway_staff (a role that owns nothing) with their request's or job's scope
-- set for the transaction (apps/server/src/db/scope.ts); the policies of policies.sql read it
-- through these functions. Each is read once per statement where a policy writes it as a
-- sub-select, (select pathway_sites()). Unset, or left empty by an earlier transaction of the
-- session, a setting is null: no rows.
create or replace function pathway_scope() returns text language sql stable
as $$ select nullif(current_setting('pathway.scope', true), '') $$;

create or replace function pathway_organisation() returns integer language sql stable
as $$ select nullif(current_setting('pathway.organisation', true), '')::integer $$;

create or replace function pathway_sites() returns integer[] language sql stable
as $$ select nullif(current_setting('pathway.sites', true), '')::integer[] $$;

create or replace function pathway_every_site() returns boolean language sql stable
as $$ select coalesce(nullif(current_setting('pathway.every_site', true), '')::boolean, false) $$;

create or replace function pathway_system_administrator() returns boolean language sql stable
as $$ select coalesce(nullif(current_setting('pathway.system_administrator', true), '')::boolean, false) $$;

-- What a system administrator reads of other organisations: counts, never a participant record.
create or replace function organisation_participant_counts() returns table (organisation_id integer, participants integer)
language sql stable security definer set search_path = public, pg_temp as $$
  select s.organisation_id, coalesce(sum(t.delta), 0)::int
  from participant_tally t join sites s on s.site_id = t.site_id
  where pathway_system_administrator() or pathway_scope() = 'instance' or s.organisation_id = pathway_organisation()
  group by s.organisation_id
$$;

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

create or replace trigger participant_site_changed after update of site_id on participants
  for each row when (old.site_id is distinct from new.site_id)
  execute function participant_site_changed();

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

create or replace trigger device_holder_site after insert or delete or update of authorized_device_id, site_id on participants
  for each row execute function device_holder_site();
