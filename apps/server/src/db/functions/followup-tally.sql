-- followup_tally: how many participants have each follow-up reason that does not depend on the
-- time of day (listed, behind, slightly_behind, reminders_failing, programme_finished), as rows of
-- deltas whose sums are those counts, so the worklist's totals and its dashboard card never count
-- participant_followup. Each statement on participant_followup appends one row per reason whose
-- count it changed, none when it changed none (a tablet's call or a contact writes no tally row);
-- the daily check folds them (foldFollowupTally in modules/followup).
-- Proof: modules/followup/followup.test.ts ("paging and counts": the counts equal the rows a walk
-- of the whole list finds, before and after the fold).

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

create or replace trigger followup_tally_insert after insert on participant_followup
  referencing new table as after_rows for each statement execute function followup_tally_inserted();

create or replace trigger followup_tally_update after update on participant_followup
  referencing old table as before_rows new table as after_rows for each statement execute function followup_tally_updated();

create or replace trigger followup_tally_delete after delete on participant_followup
  referencing old table as before_rows for each statement execute function followup_tally_deleted();
