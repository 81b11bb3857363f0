-- The participant tally (see apps/server/src/db/participant-tally.ts): triggers that append each
-- statement's change to participant_tally, then the tally rebuilt from the tables. Until 0.1.0 these were
-- installed at start; create or replace keeps this safe on a database that already has them.
create or replace function participant_tally_participants_inserted() returns trigger language plpgsql as $$
begin
  insert into participant_tally (adherence, with_programme, delta)
  select n.adherence, false, count(*)::int from inserted n group by n.adherence;
  return null;
end $$;
--> statement-breakpoint
create or replace function participant_tally_participants_updated() returns trigger language plpgsql as $$
begin
  insert into participant_tally (adherence, with_programme, delta)
  select adherence, with_programme, sum(delta)::int from (
    select o.adherence, -1 as delta,
           exists (select 1 from fitness_participation_progress pp where pp.participant_id = o.participant_id) as with_programme
    from before_rows o join after_rows n using (participant_id) where o.adherence <> n.adherence
    union all
    select n.adherence, 1,
           exists (select 1 from fitness_participation_progress pp where pp.participant_id = n.participant_id)
    from before_rows o join after_rows n using (participant_id) where o.adherence <> n.adherence
  ) moved
  group by adherence, with_programme
  having sum(delta) <> 0;
  return null;
end $$;
--> statement-breakpoint
create or replace function participant_tally_participant_deleting() returns trigger language plpgsql as $$
begin
  insert into participant_tally (adherence, with_programme, delta)
  values (old.adherence,
          exists (select 1 from fitness_participation_progress pp where pp.participant_id = old.participant_id), -1);
  return old;
end $$;
--> statement-breakpoint
create or replace function participant_tally_programmes_changed() returns trigger language plpgsql as $$
declare
  sign int := case when tg_op = 'INSERT' then 1 else -1 end;
begin
  insert into participant_tally (adherence, with_programme, delta)
  select p.adherence, v.with_programme, (v.delta * sign * count(*))::int
  from changed c
  join participants p on p.participant_id = c.participant_id
  cross join (values (false, -1), (true, 1)) as v(with_programme, delta)
  group by p.adherence, v.with_programme, v.delta;
  return null;
end $$;
--> statement-breakpoint
create or replace trigger participant_tally_insert after insert on participants
  referencing new table as inserted for each statement execute function participant_tally_participants_inserted();
--> statement-breakpoint
create or replace trigger participant_tally_update after update on participants
  referencing old table as before_rows new table as after_rows
  for each statement execute function participant_tally_participants_updated();
--> statement-breakpoint
create or replace trigger participant_tally_delete before delete on participants
  for each row execute function participant_tally_participant_deleting();
--> statement-breakpoint
create or replace trigger participant_tally_programme_insert after insert on fitness_participation_progress
  referencing new table as changed for each statement execute function participant_tally_programmes_changed();
--> statement-breakpoint
create or replace trigger participant_tally_programme_delete after delete on fitness_participation_progress
  referencing old table as changed for each statement execute function participant_tally_programmes_changed();
--> statement-breakpoint
lock table participants, fitness_participation_progress in share row exclusive mode;
--> statement-breakpoint
delete from participant_tally;
--> statement-breakpoint
insert into participant_tally (adherence, with_programme, delta)
select p.adherence, pp.participant_id is not null, count(*)::int
from participants p left join fitness_participation_progress pp on pp.participant_id = p.participant_id
group by 1, 2;
