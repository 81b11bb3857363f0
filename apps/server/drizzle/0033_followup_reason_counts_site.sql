-- The Follow-up page's counts per reason (GET /api/followup/counts, and a page filtered by a
-- reason) count the tablets silent and the participants not started from these partial indexes,
-- as pathway_staff, whose policy reads each row's site_id. Without site_id in the index each
-- counted row was a visit of the table: at the bench's 100k participants (65,213 on the worklist)
-- 12,715 and 9,000 rows, the second by a scan of the whole table under the generic plan, 19 ms of
-- the counts' 22 ms in EXPLAIN ANALYZE on PostgreSQL; 5.3 ms with these (issue 41). site_id is the
-- last key column, so the order the worklist's pages walk (the reason's time, then the
-- participant) is unchanged. Rebuilt, as in 0032: an index's columns cannot be added to in place.
DROP INDEX "participant_followup_silent_idx";--> statement-breakpoint
DROP INDEX "participant_followup_not_started_idx";--> statement-breakpoint
CREATE INDEX "participant_followup_silent_idx" ON "participant_followup" USING btree ("silent_from","participant_id","site_id") WHERE "participant_followup"."silent_from" is not null;--> statement-breakpoint
CREATE INDEX "participant_followup_not_started_idx" ON "participant_followup" USING btree ("not_started_from","participant_id","site_id") WHERE "participant_followup"."not_started_from" is not null;