-- days_behind and its class move out of participants into a narrow table of their own (issue 14).
-- The daily check rewrites days_behind for most participants every day. In participants, each new
-- row version added an entry to all eight of its indexes (days_behind was indexed, so no update
-- could be HOT); a row of participant_adherence is a few bytes with three small indexes.
-- Every participant has exactly one row: made by a trigger when the participant is inserted,
-- removed with them by the foreign key's cascade.
CREATE TABLE "participant_adherence" (
	"participant_id" integer PRIMARY KEY NOT NULL,
	"days_behind" integer DEFAULT 0 NOT NULL,
	"adherence" integer GENERATED ALWAYS AS (case when days_behind <= 0 then 0 when days_behind <= 2 then 1 else 2 end) STORED NOT NULL
);
--> statement-breakpoint
ALTER TABLE "participant_adherence" ADD CONSTRAINT "participant_adherence_participant_id_participants_participant_id_fk" FOREIGN KEY ("participant_id") REFERENCES "public"."participants"("participant_id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- No writer may change participants or programmes between the copy and the new triggers.
lock table participants, fitness_participation_progress in share row exclusive mode;
--> statement-breakpoint
insert into participant_adherence (participant_id, days_behind)
select participant_id, days_behind from participants;
--> statement-breakpoint
CREATE INDEX "participant_adherence_days_behind_idx" ON "participant_adherence" USING btree ("days_behind","participant_id");
--> statement-breakpoint
CREATE INDEX "participant_adherence_adherence_idx" ON "participant_adherence" USING btree ("adherence","participant_id");
--> statement-breakpoint
-- A new participant gets their row in the statement that inserts them.
create or replace function participant_adherence_participants_inserted() returns trigger language plpgsql as $$
begin
  insert into participant_adherence (participant_id) select participant_id from inserted;
  return null;
end $$;
--> statement-breakpoint
create trigger participant_adherence_insert after insert on participants
  referencing new table as inserted for each statement execute function participant_adherence_participants_inserted();
--> statement-breakpoint
-- The tally (db/participant-tally.ts) follows the class where it now lives. Its insert and update
-- functions read only participant_id and adherence from their transition tables, which the new
-- table has under the same names: they move unchanged from participants to participant_adherence.
drop trigger if exists participant_tally_insert on participants;
--> statement-breakpoint
drop trigger if exists participant_tally_update on participants;
--> statement-breakpoint
create trigger participant_tally_insert after insert on participant_adherence
  referencing new table as inserted for each statement execute function participant_tally_participants_inserted();
--> statement-breakpoint
create trigger participant_tally_update after update on participant_adherence
  referencing old table as before_rows new table as after_rows
  for each statement execute function participant_tally_participants_updated();
--> statement-breakpoint
-- A participant's delete still counts them out before the cascade removes their rows; their class
-- is read from participant_adherence, which the cascade has not reached yet in a BEFORE trigger.
create or replace function participant_tally_participant_deleting() returns trigger language plpgsql as $$
begin
  insert into participant_tally (adherence, with_programme, delta)
  select a.adherence,
         exists (select 1 from fitness_participation_progress pp where pp.participant_id = old.participant_id), -1
  from participant_adherence a where a.participant_id = old.participant_id;
  return old;
end $$;
--> statement-breakpoint
-- A programme added or removed moves its participant between "no programme" and "programme" in
-- their class. The join on participants still skips a programme removed by its participant's
-- delete (the participant is gone, and was counted out), whichever cascade runs first.
create or replace function participant_tally_programmes_changed() returns trigger language plpgsql as $$
declare
  sign int := case when tg_op = 'INSERT' then 1 else -1 end;
begin
  insert into participant_tally (adherence, with_programme, delta)
  select a.adherence, v.with_programme, (v.delta * sign * count(*))::int
  from changed c
  join participants p on p.participant_id = c.participant_id
  join participant_adherence a on a.participant_id = c.participant_id
  cross join (values (false, -1), (true, 1)) as v(with_programme, delta)
  group by a.adherence, v.with_programme, v.delta;
  return null;
end $$;
--> statement-breakpoint
ALTER TABLE "participants" DROP COLUMN "adherence";
--> statement-breakpoint
ALTER TABLE "participants" DROP COLUMN "days_behind";
--> statement-breakpoint
-- The tally rebuilt from the new table: the same counts, now read from where the triggers look.
delete from participant_tally;
--> statement-breakpoint
insert into participant_tally (adherence, with_programme, delta)
select a.adherence, pp.participant_id is not null, count(*)::int
from participant_adherence a left join fitness_participation_progress pp on pp.participant_id = a.participant_id
group by 1, 2;
