-- The follow-up counts without counting rows: the tablets silent and the participants not started
-- are tallied by the day their time falls on (UTC), as the kept reasons are tallied (0016, 0029).
-- Whether one holds moves with the clock (silent_from older than the silent days), so it cannot be
-- kept as a count; but its count at any instant T is the tally's days before T's day plus the rows
-- of T's own day up to T, a short range of the reason's partial index (followup/worklist.ts). Each
-- is also tallied among those with none of the kept reasons (*_only), for the worklist's total.
-- Before this the counts read every such row on each request: at the bench's 100k participants
-- (65,213 on the worklist) 31,928 index entries for GET /api/followup/counts and 10,213 for each
-- worklist page (bench/results.md, issue 41).
-- Writes to the follow-up rows wait from here to the end: taken first, before followup_tally's own
-- lock below, in the order a writer takes them (its row, then its trigger's tally rows), so that a
-- tablet's call during the migration waits for it instead of deadlocking with it.
lock table participant_followup in share row exclusive mode;--> statement-breakpoint
DROP INDEX "followup_tally_reason_idx";--> statement-breakpoint
ALTER TABLE "followup_tally" ADD COLUMN "day" date;--> statement-breakpoint
CREATE INDEX "followup_tally_reason_idx" ON "followup_tally" USING btree ("reason","day","site_id","delta");--> statement-breakpoint
-- The tally's rows a follow-up row counts under: each kept reason that holds (day null), and the
-- UTC day of a silent tablet's or of not started's time. One definition for the triggers and the
-- count below; a plain SQL function, so that the planner inlines it into their statements.
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
--> statement-breakpoint
-- One row per site, reason and day whose count a statement changed, none when it changed none (a
-- contact, or a tablet's call on a day it already called, writes no tally row).
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
--> statement-breakpoint
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
--> statement-breakpoint
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
--> statement-breakpoint
-- The days tallied from the rows as they are (the kept reasons' rows stand); the triggers above
-- count every later change.
insert into followup_tally (site_id, reason, day, delta)
select f.site_id, k.reason, k.day, count(*)::int
from participant_followup f, lateral followup_tally_keys(f) k
where k.day is not null
group by f.site_id, k.reason, k.day;
