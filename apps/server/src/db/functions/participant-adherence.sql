-- participant_adherence: every participant has exactly one row (their days_behind, written by the
-- daily check, and its class), made in the statement that inserts them and removed with them by the
-- foreign key's cascade. A narrow table of its own, because the daily check rewrites days_behind for
-- most participants every day and a row of participants carries many indexes.
-- Proof: db/participant-tally.test.ts (every participant counted through their row).

create or replace function participant_adherence_participants_inserted() returns trigger language plpgsql
security definer set search_path = public, pg_temp as $$
begin
  insert into participant_adherence (participant_id) select participant_id from inserted;
  return null;
end $$;

create or replace trigger participant_adherence_insert after insert on participants
  referencing new table as inserted for each statement execute function participant_adherence_participants_inserted();
