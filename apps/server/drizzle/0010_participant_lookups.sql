-- A participant's rows in the tables that grow with time are found by index (issue 14).
-- Deleting a participant runs each referencing foreign key's action (cascade or set null), which
-- looks the participant's rows up by participant_id; without an index it reads the whole table.
-- With the bench's 100k participants and ten days of reminders (2M outbox rows) one delete took
-- 282-511 ms, almost all of it the outbox's "set null"; with these indexes 2.5 ms.
--
-- push_outbox keeps up to two reminders per participant a day for PUSH_RETENTION_DAYS (180 by
-- default). Its unique dedupe index now leads with participant_id, which also serves the
-- participant screen's recent messages (343 ms -> 0.1 ms above). A dedupe key already names its
-- participant, so (participant_id, dedupe_key) is unique exactly when dedupe_key is for every row
-- that has both; the daily check's reminders always do. One index serves both uses, so queueing a
-- message costs what it did. Byte order ("C") for the key, as in 0008.
CREATE UNIQUE INDEX "push_outbox_participant_dedupe_key" ON "push_outbox" USING btree ("participant_id", "dedupe_key" collate "C");
--> statement-breakpoint
DROP INDEX "push_outbox_dedupe_key";
--> statement-breakpoint
-- One row per tablet sign-in (kept with the audit trail) and per device token.
CREATE INDEX "device_sign_ins_participant_idx" ON "device_sign_ins" USING btree ("participant_id");
--> statement-breakpoint
CREATE INDEX "device_tokens_participant_idx" ON "device_tokens" USING btree ("participant_id");
