-- The daily adherence check's writes (issue 14; see modules/adherence/check.ts):
-- - It rewrites every programme row once a day (position, percentage, missed count, updated_at),
--   none of them an indexed column. Half of each page is left free, so the day's new version of
--   a row fits on its own page: a HOT update, with no new entry in the table's three indexes.
--   Yesterday's versions are pruned when the page is next read. Pages written from now on keep
--   that room; existing ones gain it as rows move on their first daily update.
alter table fitness_participation_progress set (fillfactor = 50);
--> statement-breakpoint
-- - It queues up to two reminders a participant a day, each with a unique dedupe key that is only
--   ever compared for equality: byte order ("C") compares those keys without the locale's rules,
--   for the same answers (one key, one row). The ON CONFLICT (dedupe_key) guard still infers it.
drop index if exists push_outbox_dedupe_key;
--> statement-breakpoint
create unique index push_outbox_dedupe_key on push_outbox using btree (dedupe_key collate "C");
