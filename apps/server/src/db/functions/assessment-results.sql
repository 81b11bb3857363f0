-- assessment_results are append-only: a correction is a new row that amends the first, so nothing
-- may rewrite one (a participant's destruction deletes them, which stays possible).
-- Proof: modules/outcomes/outcomes.test.ts (the database itself refuses to rewrite a result).

create or replace function assessment_results_append_only() returns trigger language plpgsql
security definer set search_path = public, pg_temp as $$
begin
  raise exception 'assessment_results is append-only: a correction is a new row that amends the result'
    using errcode = 'restrict_violation';
end $$;
create trigger assessment_results_append_only before update on assessment_results
  for each row execute function assessment_results_append_only();
