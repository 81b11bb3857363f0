CREATE TABLE "programme_settings" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "participant_followup" ADD COLUMN "assessment_due_on" date;--> statement-breakpoint
ALTER TABLE "participant_followup" ADD COLUMN "assessment_due_until" date;--> statement-breakpoint
ALTER TABLE "participant_followup" ADD COLUMN "assessment_due_from" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "participant_followup_assessment_idx" ON "participant_followup" USING btree ("assessment_due_from","participant_id") WHERE "participant_followup"."assessment_due_from" is not null;--> statement-breakpoint
CREATE INDEX "participant_followup_assessment_only_idx" ON "participant_followup" USING btree ("assessment_due_from","assessment_due_on","assessment_due_until","silent_from","not_started_from") WHERE "participant_followup"."assessment_due_from" is not null and "participant_followup"."behind_since" is null and "participant_followup"."slightly_since" is null and "participant_followup"."failing_since" is null and "participant_followup"."finished_since" is null;--> statement-breakpoint
CREATE INDEX "participant_followup_assessment_until_idx" ON "participant_followup" USING btree ("assessment_due_until") WHERE "participant_followup"."assessment_due_until" is not null;