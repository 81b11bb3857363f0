import { sql } from 'drizzle-orm';
import type { Database } from './client.js';
import { rowsOf } from './rows.js';

/**
 * Counting participants per adherence class reads every participant (hundreds of milliseconds at
 * 100k in PGlite), on every grid page and every dashboard. Triggers instead append the change each
 * statement makes to participant_tally, inside its transaction; reads sum those rows. Appending
 * (never updating a shared counter row) means writers never wait for each other or deadlock.
 *
 * Who counts what:
 * - participants: an insert adds to (class, no programme); a change of days_behind that changes
 *   the class moves the participant, with or without a programme as they are; a delete (row
 *   trigger, before the cascade removes the programme) takes them out where they were.
 * - fitness_participation_progress: an insert or a delete moves its participant between "no
 *   programme" and "programme" in their class; a programme deleted because its participant is
 *   being deleted is skipped (the participant is already gone and was counted out).
 *
 * The triggers are installed on start (after the migrations, idempotently), so the drizzle-kit
 * migration that is regenerated from schema.ts never has to carry them. On the first install the
 * tally is rebuilt from the tables under a lock.
 */
const TRIGGERS = `
create or replace function participant_tally_participants_inserted() returns trigger language plpgsql as $$
begin
  insert into participant_tally (adherence, with_programme, delta)
  select n.adherence, false, count(*)::int from inserted n group by n.adherence;
  return null;
end $$;

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

create or replace function participant_tally_participant_deleting() returns trigger language plpgsql as $$
begin
  insert into participant_tally (adherence, with_programme, delta)
  values (old.adherence,
          exists (select 1 from fitness_participation_progress pp where pp.participant_id = old.participant_id), -1);
  return old;
end $$;

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

create or replace trigger participant_tally_insert after insert on participants
  referencing new table as inserted for each statement execute function participant_tally_participants_inserted();
create or replace trigger participant_tally_update after update on participants
  referencing old table as before_rows new table as after_rows
  for each statement execute function participant_tally_participants_updated();
create or replace trigger participant_tally_delete before delete on participants
  for each row execute function participant_tally_participant_deleting();
create or replace trigger participant_tally_programme_insert after insert on fitness_participation_progress
  referencing new table as changed for each statement execute function participant_tally_programmes_changed();
create or replace trigger participant_tally_programme_delete after delete on fitness_participation_progress
  referencing old table as changed for each statement execute function participant_tally_programmes_changed();
`;

const REBUILD = `
lock table participants, fitness_participation_progress in share row exclusive mode;
delete from participant_tally;
insert into participant_tally (adherence, with_programme, delta)
select p.adherence, pp.participant_id is not null, count(*)::int
from participants p left join fitness_participation_progress pp on pp.participant_id = p.participant_id
group by 1, 2;
`;

/** Installs (or replaces) the triggers; rebuilds the tally when they were not there before. */
export async function installParticipantTally(
  exec: (text: string) => Promise<{ rows: unknown[] }>,
): Promise<void> {
  const present = await exec(`select 1 from pg_trigger where tgname = 'participant_tally_insert'`);
  await exec(`begin; ${TRIGGERS} ${present.rows.length === 0 ? REBUILD : ''} commit;`);
}

export interface ParticipantCounts {
  /** [class 0, 1, 2]: every participant. */
  all: [number, number, number];
  /** [class 0, 1, 2]: participants with a programme. */
  withProgramme: [number, number, number];
}

export async function participantCounts(db: Database): Promise<ParticipantCounts> {
  const rows = rowsOf<{ adherence: number; with_programme: boolean; n: number }>(
    await db.execute(
      sql`select adherence, with_programme, sum(delta)::int as n from participant_tally group by 1, 2`,
    ),
  );
  const counts: ParticipantCounts = { all: [0, 0, 0], withProgramme: [0, 0, 0] };
  for (const row of rows) {
    counts.all[row.adherence] += Number(row.n);
    if (row.with_programme) counts.withProgramme[row.adherence] += Number(row.n);
  }
  return counts;
}

/** Folds the tally into one row per class (daily): reads then sum a handful of rows. */
export async function foldParticipantTally(db: Database): Promise<void> {
  // Rows appended meanwhile are not in this snapshot: they stay, and are folded next time.
  await db.execute(sql`
    with folded as (delete from participant_tally returning adherence, with_programme, delta)
    insert into participant_tally (adherence, with_programme, delta)
    select adherence, with_programme, sum(delta)::int from folded group by 1, 2 having sum(delta) <> 0`);
}
