-- The worklist's total counts the tablets silent and the participants not started (and those with
-- only assessments due) from their partial indexes alone (followup/worklist.ts). Since 0029 those
-- counts run as pathway_staff, and participant_followup's policy reads each row's site_id, which
-- these indexes did not hold: every counted row became a visit of the table (at 100k participants
-- about 10,000 rows over 1,391 pages for each first page of the worklist, some 4 ms of PostgreSQL's
-- CPU per request; bench/results.md, issue 41). With site_id in the index the policy is checked
-- from the index and the counts are index-only again. Rebuilt rather than altered: an index's
-- columns cannot be added to in place.
DROP INDEX "participant_followup_silent_only_idx";--> statement-breakpoint
DROP INDEX "participant_followup_not_started_only_idx";--> statement-breakpoint
DROP INDEX "participant_followup_assessment_only_idx";--> statement-breakpoint
CREATE INDEX "participant_followup_silent_only_idx" ON "participant_followup" USING btree ("silent_from","site_id") WHERE "participant_followup"."silent_from" is not null and "participant_followup"."behind_since" is null and "participant_followup"."slightly_since" is null and "participant_followup"."failing_since" is null and "participant_followup"."finished_since" is null;--> statement-breakpoint
CREATE INDEX "participant_followup_not_started_only_idx" ON "participant_followup" USING btree ("not_started_from","site_id") WHERE "participant_followup"."not_started_from" is not null and "participant_followup"."behind_since" is null and "participant_followup"."slightly_since" is null and "participant_followup"."failing_since" is null and "participant_followup"."finished_since" is null;--> statement-breakpoint
CREATE INDEX "participant_followup_assessment_only_idx" ON "participant_followup" USING btree ("assessment_due_from","assessment_due_on","assessment_due_until","silent_from","not_started_from","site_id") WHERE "participant_followup"."assessment_due_from" is not null and "participant_followup"."behind_since" is null and "participant_followup"."slightly_since" is null and "participant_followup"."failing_since" is null and "participant_followup"."finished_since" is null;