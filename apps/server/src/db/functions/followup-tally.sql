-- followup_tally: how many participants have each follow-up reason that does not depend on the
-- time of day (listed, behind, slightly_behind, reminders_failing, programme_finished), as rows of
-- deltas whose sums are those counts, so the worklist's totals and its dashboard card never count
-- participant_followup. Each statement on participant_followup appends one row per reason whose
-- count it changed, none when it changed none (a tablet's call or a contact writes no tally row);
-- the daily check folds them (foldFollowupTally in modules/followup).
-- Proof: modules/followup/followup.test.ts ("paging and counts": the counts equal the rows a walk
-- of the whole list finds, before and after the fold).

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

create or replace trigger followup_tally_insert after insert on participant_followup
  referencing new table as after_rows for each statement execute function followup_tally_inserted();

create or replace trigger followup_tally_update after update on participant_followup
  referencing old table as before_rows new table as after_rows for each statement execute function followup_tally_updated();

create or replace trigger followup_tally_delete after delete on participant_followup
  referencing old table as before_rows for each statement execute function followup_tally_deleted();
