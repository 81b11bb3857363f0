-- Issue 32. The participant tally (db/participant-tally.ts) counts by status too, so the grid's
-- status filter and the dashboard (active participants only) read their totals from it; and a
-- session remembers when its admin last proved who they are (sign-in or step-up).
ALTER TABLE "participant_tally" ADD COLUMN "status" text DEFAULT 'active' NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "authenticated_at" timestamp with time zone;--> statement-breakpoint
-- A new participant is counted under the status they were inserted with (active unless a test or
-- an import says otherwise).
create or replace function participant_tally_participants_inserted() returns trigger language plpgsql as $$
begin
  insert into participant_tally (adherence, with_programme, status, delta)
  select n.adherence, false, p.status, count(*)::int
  from inserted n join participants p on p.participant_id = n.participant_id
  group by n.adherence, p.status;
  return null;
end $$;
--> statement-breakpoint
-- A change of class (the daily check) moves the participant within their status: looked up for
-- the moved participants only, like their programme.
create or replace function participant_tally_participants_updated() returns trigger language plpgsql as $$
begin
  insert into participant_tally (adherence, with_programme, status, delta)
  select m.adherence, moved.with_programme, moved.status, sum(m.delta)::int
  from (
    select o.adherence as before_class, n.adherence as after_class,
           exists (select 1 from fitness_participation_progress pp where pp.participant_id = n.participant_id) as with_programme,
           (select p.status from participants p where p.participant_id = n.participant_id) as status
    from before_rows o join after_rows n using (participant_id) where o.adherence <> n.adherence
  ) moved
  cross join lateral (values (moved.before_class, -1), (moved.after_class, 1)) as m(adherence, delta)
  where moved.status is not null
  group by m.adherence, moved.with_programme, moved.status
  having sum(m.delta) <> 0;
  return null;
end $$;
--> statement-breakpoint
create or replace function participant_tally_participant_deleting() returns trigger language plpgsql as $$
begin
  insert into participant_tally (adherence, with_programme, status, delta)
  select a.adherence,
         exists (select 1 from fitness_participation_progress pp where pp.participant_id = old.participant_id),
         old.status, -1
  from participant_adherence a where a.participant_id = old.participant_id;
  return old;
end $$;
--> statement-breakpoint
create or replace function participant_tally_programmes_changed() returns trigger language plpgsql as $$
declare
  sign int := case when tg_op = 'INSERT' then 1 else -1 end;
begin
  insert into participant_tally (adherence, with_programme, status, delta)
  select a.adherence, v.with_programme, p.status, (v.delta * sign * count(*))::int
  from changed c
  join participants p on p.participant_id = c.participant_id
  join participant_adherence a on a.participant_id = c.participant_id
  cross join (values (false, -1), (true, 1)) as v(with_programme, delta)
  group by a.adherence, p.status, v.with_programme, v.delta;
  return null;
end $$;
--> statement-breakpoint
-- A discharge or re-referral moves the participant between statuses, in their class and with or
-- without their programme. A row trigger with a WHEN: it runs only when the status changes, never
-- for the tablet's contact-time updates of participants.
create or replace function participant_tally_status_changed() returns trigger language plpgsql as $$
begin
  insert into participant_tally (adherence, with_programme, status, delta)
  select a.adherence,
         exists (select 1 from fitness_participation_progress pp where pp.participant_id = new.participant_id),
         v.status, v.delta
  from participant_adherence a
  cross join (values (old.status, -1), (new.status, 1)) as v(status, delta)
  where a.participant_id = new.participant_id;
  return null;
end $$;
--> statement-breakpoint
create trigger participant_tally_status after update of status on participants
  for each row when (old.status is distinct from new.status)
  execute function participant_tally_status_changed();
--> statement-breakpoint
lock table participants, participant_adherence, fitness_participation_progress in share row exclusive mode;
--> statement-breakpoint
delete from participant_tally;
--> statement-breakpoint
insert into participant_tally (adherence, with_programme, status, delta)
select a.adherence, pp.participant_id is not null, p.status, count(*)::int
from participant_adherence a
join participants p on p.participant_id = a.participant_id
left join fitness_participation_progress pp on pp.participant_id = a.participant_id
group by 1, 2, 3;
