-- followup_tally: how many participants have each follow-up reason, as rows of deltas whose sums
-- are those counts, so the worklist's totals and its dashboard card never count participant_followup
-- row by row. The reasons that do not depend on the time of day (listed, behind, slightly_behind,
-- reminders_failing, programme_finished) have day null. The two a threshold brings have a row per
-- UTC day their time falls on (tablet_silent by silent_from, not_started by not_started_from, and
-- each among those with none of the kept reasons: tablet_silent_only, not_started_only): their count
-- at an instant is the days before its day plus that day's rows up to it (thresholdCount in
-- modules/followup/worklist.ts; drizzle 0034). Each statement on participant_followup appends one
-- row per site, reason and day whose count it changed, none when it changed none (a contact, or a
-- tablet's call on a day it already called, writes no tally row); followup_tally_keys says which
-- rows a follow-up row counts under. The daily check folds them (foldFollowupTally in
-- modules/followup).
-- Proof: modules/followup/followup.test.ts ("paging and counts": the counts equal the rows a walk
-- of the whole list finds, before and after the fold) and modules/followup/counts.test.ts (the
-- same at every instant around the days' edges, after calls, deletes and the fold).

create or replace function followup_tally_keys(r participant_followup) returns table (reason text, day date)
language sql immutable as $$
  select v.reason, v.day from (values
    ('listed', r.behind_since is not null or r.slightly_since is not null or r.failing_since is not null
      or r.finished_since is not null, null::date),
    ('behind', r.behind_since is not null, null),
    ('slightly_behind', r.slightly_since is not null, null),
    ('reminders_failing', r.failing_since is not null, null),
    ('programme_finished', r.finished_since is not null, null),
    ('tablet_silent', r.silent_from is not null, (r.silent_from at time zone 'UTC')::date),
    ('not_started', r.not_started_from is not null, (r.not_started_from at time zone 'UTC')::date),
    ('tablet_silent_only', r.silent_from is not null and r.behind_since is null and r.slightly_since is null
      and r.failing_since is null and r.finished_since is null, (r.silent_from at time zone 'UTC')::date),
    ('not_started_only', r.not_started_from is not null and r.behind_since is null and r.slightly_since is null
      and r.failing_since is null and r.finished_since is null, (r.not_started_from at time zone 'UTC')::date)
  ) v(reason, holds, day)
  where v.holds
$$;

create or replace function followup_tally_inserted() returns trigger language plpgsql
security definer set search_path = public, pg_temp as $$
begin
  insert into followup_tally (site_id, reason, day, delta)
  select site_id, reason, day, sum(delta)::int from (
    select x.site_id, k.reason, k.day, 1 as delta from after_rows x, lateral followup_tally_keys(x) k
  ) d
  group by site_id, reason, day
  having sum(delta) <> 0;
  return null;
end $$;

create or replace function followup_tally_updated() returns trigger language plpgsql
security definer set search_path = public, pg_temp as $$
begin
  insert into followup_tally (site_id, reason, day, delta)
  select site_id, reason, day, sum(delta)::int from (
    select x.site_id, k.reason, k.day, 1 as delta from after_rows x, lateral followup_tally_keys(x) k
    union all
    select x.site_id, k.reason, k.day, -1 as delta from before_rows x, lateral followup_tally_keys(x) k
  ) d
  group by site_id, reason, day
  having sum(delta) <> 0;
  return null;
end $$;

create or replace function followup_tally_deleted() returns trigger language plpgsql
security definer set search_path = public, pg_temp as $$
begin
  insert into followup_tally (site_id, reason, day, delta)
  select site_id, reason, day, sum(delta)::int from (
    select x.site_id, k.reason, k.day, -1 as delta from before_rows x, lateral followup_tally_keys(x) k
  ) d
  group by site_id, reason, day
  having sum(delta) <> 0;
  return null;
end $$;

create or replace trigger followup_tally_insert after insert on participant_followup
  referencing new table as after_rows for each statement execute function followup_tally_inserted();

create or replace trigger followup_tally_update after update on participant_followup
  referencing old table as before_rows new table as after_rows for each statement execute function followup_tally_updated();

create or replace trigger followup_tally_delete after delete on participant_followup
  referencing old table as before_rows for each statement execute function followup_tally_deleted();
