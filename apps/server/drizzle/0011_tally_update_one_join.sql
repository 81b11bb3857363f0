-- The participant tally's update trigger (0001, on participant_adherence since 0009) joins the
-- statement's old and new rows once instead of twice (issue 14). The daily adherence check
-- rewrites days_behind for most participants in one statement, so the trigger is handed ~100k old
-- and new rows; it joined them twice (once for each moved participant's -1, once for their +1) and
-- looked up their programme twice. Now each moved participant gives both rows from one join and one
-- lookup. Same counts (a participant's class before and after, with or without a programme).
create or replace function participant_tally_participants_updated() returns trigger language plpgsql as $$
begin
  insert into participant_tally (adherence, with_programme, delta)
  select m.adherence, moved.with_programme, sum(m.delta)::int
  from (
    select o.adherence as before_class, n.adherence as after_class,
           exists (select 1 from fitness_participation_progress pp where pp.participant_id = n.participant_id) as with_programme
    from before_rows o join after_rows n using (participant_id) where o.adherence <> n.adherence
  ) moved
  cross join lateral (values (moved.before_class, -1), (moved.after_class, 1)) as m(adherence, delta)
  group by m.adherence, moved.with_programme
  having sum(m.delta) <> 0;
  return null;
end $$;
