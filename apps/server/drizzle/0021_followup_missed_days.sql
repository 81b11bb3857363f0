ALTER TABLE "participant_followup" ADD COLUMN "days_missed" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "participant_followup" ADD COLUMN "first_missed_on" date;--> statement-breakpoint
ALTER TABLE "participant_followup" ADD COLUMN "third_missed_on" date;--> statement-breakpoint
ALTER TABLE "participant_followup" ADD COLUMN "failing_began_at" timestamp with time zone;